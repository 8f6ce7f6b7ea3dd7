/**
 * `recall import` of a big file in bounded blocks against a real LanceDB store: one lock and one commit
 * per block, the caller's upkeep check after each block (with the block's rows stored by then), and
 * duplicates across blocks still found, by id and by text.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { IMPORT_BLOCK, importMemories, type ImportStep } from '../../src/store/import-memories.js';
import { useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-import-blocks-');
const embedder = createHashEmbedder();

/** Random-looking words, so no two lines are near each other by meaning. */
function words(i: number): string {
  const hex = createHash('sha256').update(String(i)).digest('hex');
  return `${hex.slice(0, 8)} ${hex.slice(8, 16)} ${hex.slice(16, 24)}`;
}

function line(i: number, over: Record<string, unknown> = {}): string {
  return JSON.stringify({ id: `L${i}`, content: words(i), ...over });
}

describe('import in blocks', () => {
  it('writes a file of more than one block a block at a time, checks upkeep after each, and still drops duplicates across blocks', async () => {
    const store = await stores.openStore();
    const total = 2 * IMPORT_BLOCK + 10;
    const lines = Array.from({ length: total }, (_, i) => line(i));
    // In the third block: an id the first block stored, and the text of a line of the first block under a new id.
    lines[2 * IMPORT_BLOCK + 1] = line(3, { content: 'another text under a stored id' });
    lines[2 * IMPORT_BLOCK + 2] = line(5, { id: 'NEW5' });
    let locks = 0;
    const storedAfterBlock: number[] = [];
    const progress: Array<{ step: ImportStep; done: number; total: number }> = [];
    const result = await importMemories(lines.join('\n'), {
      store, embedder, threshold: 0.85,
      withStoreLock: async (fn) => {
        locks += 1;
        return fn();
      },
      afterBlock: async () => {
        storedAfterBlock.push(await store.count());
      },
      onProgress: (step, done, all) => progress.push({ step, done, total: all }),
    });
    expect(locks).toBe(3);
    expect(storedAfterBlock).toEqual([IMPORT_BLOCK, 2 * IMPORT_BLOCK, total - 2]);
    expect(result).toMatchObject({ imported: total - 2, duplicateIds: 1, duplicateContent: 1, badLines: 0 });
    expect(await store.count()).toBe(total - 2);
    expect((await store.get('NEW5'))).toBeNull();
    expect((await store.get('L3'))?.content).toBe(JSON.parse(line(3)).content);
    // Progress counts lines of the whole file, never backwards within a step, up to the file's end.
    expect(progress.every((p) => p.total === total && p.done <= total)).toBe(true);
    expect(progress.filter((p) => p.step === 'writing').map((p) => p.done).at(-1)).toBe(total);
    const writing = progress.filter((p) => p.step === 'writing').map((p) => p.done);
    expect(writing).toEqual([...writing].sort((a, b) => a - b));
  });

  it('checks every line before writing any: a bad line in the last block stores nothing', async () => {
    const store = await stores.openStore();
    const lines = Array.from({ length: IMPORT_BLOCK + 5 }, (_, i) => line(i));
    lines[IMPORT_BLOCK + 3] = '{"content": ""}';
    const run = importMemories(lines.join('\n'), { store, embedder, threshold: 0.85, withStoreLock: (fn) => fn() });
    await expect(run).rejects.toThrow(/nothing imported: 1 bad line \(--skip-bad imports the 1028 good lines\): line 1028/);
    expect(await store.count()).toBe(0);
  });
});
