/**
 * The memories list of `recall ui` page by page: each page holds the rows right after the last one of
 * the page before, memories added meanwhile neither repeat nor skip a row, and "newer" goes back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { seedFile, type SeedMemory } from '../support/memory-file.js';
import { pageLink, rowIds, startUiProcess, type UiProcess } from '../support/ui-process.js';

let h: Harness;
let ui: UiProcess;
const BASE = Date.parse('2026-01-01T00:00:00.000Z');
const MINUTE = 60_000;

/**
 * `count` memories a minute apart from `start`, in a namespace of their own (so no batch reads as a newer
 * version of another's); every tenth shares its time with the one before, so ids break the tie.
 */
function memories(prefix: string, start: number, count: number): SeedMemory[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${String(i).padStart(4, '0')}`,
    content: `Keep ${prefix}${i}x under ${prefix}q${i * 3}z with ${prefix}w${i * 7}k and ${prefix}v${i * 11}m.`,
    namespace: `project:${prefix}-0000abcd`,
    createdAt: new Date(start + (i - (i % 10 === 9 ? 1 : 0)) * MINUTE).toISOString(),
  }));
}

/** Newest first, as the list shows them: by created_at, then id. */
function newestFirst(list: readonly SeedMemory[]): string[] {
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((m) => m.id);
}

async function importMemories(list: readonly SeedMemory[], name: string): Promise<void> {
  const file = join(h.root, `${name}.jsonl`);
  writeFileSync(file, seedFile(list));
  expect((await runCli(['import', file], { env: h.env })).exitCode).toBe(0);
}

const old = memories('a', BASE, 175);

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  await importMemories(old, 'old');
  ui = await startUiProcess(h.env);
});

afterAll(async () => {
  await ui.stop();
  await h.close();
});

describe('recall ui memories pages', () => {
  it('pages through every memory newest first, 50 a page, each row once, while newer memories arrive', async () => {
    const seen: string[] = [];
    let page = await ui.get('/');
    for (let n = 1; ; n += 1) {
      expect(page.status).toBe(200);
      expect(page.body).toContain(`newest first, page ${n}`);
      seen.push(...rowIds(page.body));
      // New memories land on top between two page loads: the next page must still start right after this one.
      if (n === 1) await importMemories(memories('b', BASE + 1_000 * MINUTE, 30), 'arrived');
      const older = pageLink(page.body, 'older');
      if (older === null) break;
      page = await ui.get(older);
    }
    expect(seen).toEqual(newestFirst(old));
  });

  it('reads a deep page by its place, and "newer" goes back to the page before it', async () => {
    const all = newestFirst([...old, ...memories('b', BASE + 1_000 * MINUTE, 30)]);
    const pages = [await ui.get('/')];
    while (pages.length < 5) pages.push(await ui.get(pageLink(pages.at(-1)!.body, 'older')!));
    expect(rowIds(pages[3]!.body)).toEqual(all.slice(150, 200));
    expect(rowIds(pages[4]!.body)).toEqual(all.slice(200));
    expect(pageLink(pages[4]!.body, 'older')).toBeNull();
    const back = await ui.get(pageLink(pages[4]!.body, 'newer')!);
    expect(back.body).toContain('newest first, page 4');
    expect(rowIds(back.body)).toEqual(rowIds(pages[3]!.body));
    const top = await ui.get(pageLink(pages[1]!.body, 'newer')!);
    expect(rowIds(top.body)).toEqual(all.slice(0, 50));
    expect(pageLink(top.body, 'newer')).toBeNull();
  });

  it('keeps the project and type filters across pages', async () => {
    await importMemories(memories('c', BASE, 60).map((m) => ({ ...m, type: 'decision' })), 'shop');
    const first = await ui.get(`/?namespace=${encodeURIComponent('project:c-0000abcd')}&type=decision`);
    const second = await ui.get(pageLink(first.body, 'older')!);
    expect([...rowIds(first.body), ...rowIds(second.body)]).toEqual(newestFirst(memories('c', BASE, 60)));
  });

  it('shows the newest page for a place that is not one', async () => {
    const page = await ui.get('/?older=yesterday~x&page=7');
    expect(page.body).toContain('newest first, page 1');
    expect(rowIds(page.body)).toHaveLength(50);
  });
});
