import { describe, expect, it } from 'vitest';
import type { ToolResultRef } from '../../../src/endless/fork-transcript.js';
import { findSuperseded, selectForResume } from '../../../src/endless/resume-rules.js';

const thresholds = { minChars: 4000, readMinChars: 16_000, forkMinChars: 1000, denylist: [] as string[] };
let n = 0;
function ref(toolName: string, chars: number, toolInput: unknown = {}, extra: Partial<ToolResultRef> = {}): ToolResultRef {
  n += 1;
  return {
    lineIndex: n, blockIndex: 0, toolUseId: `toolu_${n}`, toolName, toolInput, text: 'x'.repeat(chars),
    contentForm: 'string', hasImage: false, isError: false, toolUseResult: undefined, ...extra,
  };
}
const read = (file: string, chars: number, input: Record<string, unknown> = {}) => ref('Read', chars, { file_path: file, ...input });
const SAVED = '/home/u/.recall/endless';
const chosenIds = (refs: ToolResultRef[], keepRecent = 0, t = thresholds) => selectForResume(refs, t, keepRecent, SAVED).map((c) => c.ref.toolUseId);
const ids = (...refs: ToolResultRef[]) => refs.map((r) => r.toolUseId);

describe('findSuperseded', () => {
  it('marks a file result stale after a later change of the file or a later full Read of it', () => {
    const first = read('/p/a.ts', 3000);
    const echo = ref('Write', 3000, { file_path: '/p/a.ts', content: '…' });
    const other = read('/p/b.ts', 3000);
    const refs = [first, echo, ref('Edit', 200, { file_path: '/p/a.ts' }), other, read('/p/b.ts', 3000)];
    expect(findSuperseded(refs)).toEqual(new Map([[first.toolUseId, 'Write'], [echo.toolUseId, 'Edit'], [other.toolUseId, 'Read']]));
  });

  it('does not count a later range Read, a failed edit, another file or a Bash command as superseding', () => {
    const first = read('/p/a.ts', 3000);
    const refs = [
      first,
      read('/p/a.ts', 500, { offset: 10, limit: 20 }),
      ref('Edit', 100, { file_path: '/p/a.ts' }, { isError: true }),
      ref('Write', 100, { file_path: '/p/other.ts' }),
      ref('Bash', 100, { command: "sed -i 's/a/b/' /p/a.ts" }),
    ];
    expect(findSuperseded(refs).has(first.toolUseId)).toBe(false);
  });

  it('counts every change of a notebook or a file, whatever the edit tool', () => {
    const first = read('/p/n.ipynb', 3000);
    const second = read('/p/m.ts', 3000);
    const refs = [first, second, ref('NotebookEdit', 50, { notebook_path: '/p/n.ipynb' }), ref('MultiEdit', 50, { file_path: '/p/m.ts' })];
    expect(findSuperseded(refs)).toEqual(new Map([[first.toolUseId, 'NotebookEdit'], [second.toolUseId, 'MultiEdit']]));
  });
});

describe('selectForResume', () => {
  it('takes a superseded Read of any size from forkMinChars up, range reads included, and leaves a current Read under readMinChars whole', () => {
    const stale = read('/p/a.ts', 3000);
    const staleRange = read('/p/a.ts', 2000, { offset: 1, limit: 80 });
    const tiny = read('/p/a.ts', 400);
    const current = read('/p/b.ts', 15_000);
    const refs = [stale, staleRange, tiny, ref('Edit', 300, { file_path: '/p/a.ts' }), current];
    expect(chosenIds(refs)).toEqual(ids(stale, staleRange));
    // The full Read of 400 chars superseded the first two; the Edit superseded it (too small to compress).
    expect(selectForResume(refs, thresholds, 0, SAVED).map((c) => [c.supersededBy, c.live])).toEqual([['Read', false], ['Read', false]]);
  });

  it('takes a Write or Edit file echo only once a later call superseded it', () => {
    const echo = ref('Write', 5000, { file_path: '/p/a.ts' });
    const latest = ref('Edit', 5000, { file_path: '/p/a.ts' });
    expect(chosenIds([echo, latest])).toEqual(ids(echo));
  });

  it('takes other tools from forkMinChars up, marked as resume-only below minChars', () => {
    const small = ref('Bash', 999);
    const mid = ref('Grep', 2500, { pattern: 'x' });
    const big = ref('WebFetch', 9000, { url: 'https://x' });
    const unknown = ref('AskUserQuestion', 3000);
    const refs = [small, mid, big, unknown];
    expect(selectForResume(refs, thresholds, 0, SAVED).map((c) => [c.ref.toolUseId, c.live])).toEqual([[mid.toolUseId, false], [big.toolUseId, true]]);
  });

  it('keeps the live rules: the last results, the denylist, images, outputs recall saved and text it already put in place stay whole', () => {
    const saved = ref('Read', 20_000, { file_path: '/home/u/.recall/endless/s/t.txt' });
    const denied = ref('mcp__github__list', 9000);
    const image = ref('Bash', 9000, {}, { hasImage: true });
    const already = ref('Bash', 9000, {}, { text: `[recall: Bash output of 9,000 chars]${'x'.repeat(5000)}` });
    const last = ref('Bash', 9000);
    const t = { ...thresholds, denylist: ['mcp__github__*'] };
    expect(chosenIds([saved, denied, image, already, ref('Edit', 10, { file_path: '/home/u/.recall/endless/s/t.txt' }), last], 1, t)).toEqual([]);
  });

  it('with forkMinChars beyond every output, takes exactly what the live rules take', () => {
    const stale = read('/p/a.ts', 3000);
    const bigRead = read('/p/b.ts', 20_000);
    const refs = [stale, ref('Bash', 3000), bigRead, ref('Bash', 5000), ref('Edit', 10, { file_path: '/p/a.ts' })];
    expect(chosenIds(refs, 0, { ...thresholds, forkMinChars: Number.MAX_SAFE_INTEGER })).toEqual(ids(bigRead, refs[3]!));
  });
});
