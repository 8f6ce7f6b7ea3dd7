import { describe, expect, it } from 'vitest';
import { findFileWrites, markInput, selectInputReplacements, type ToolUseRef } from '../../../src/endless/resume-inputs.js';

const SAVED = '/home/u/.recall/endless/s1/t1.input.json';
const body = (lines: number) => Array.from({ length: lines }, (_, i) => `export const v${i} = ${i}; // line ${i}`).join('\n');
const use = (toolName: string, input: Record<string, unknown>, toolUseId = 't1'): ToolUseRef => ({ lineIndex: 0, blockIndex: 0, toolUseId, toolName, input });
const rules = (keepWhole: string[] = []) => ({ keepWhole: new Set(keepWhole), minChars: 1000, savedPathOf: () => SAVED });

describe('file-writing inputs at resume', () => {
  it('finds the Write, Edit, MultiEdit and NotebookEdit calls of assistant lines, and nothing else', () => {
    const records = [
      { type: 'assistant', message: { content: [{ type: 'text', text: 'x' }, { type: 'tool_use', id: 'a', name: 'Write', input: { file_path: '/p/a', content: 'c' } }] } },
      { type: 'user', message: { content: [{ type: 'tool_use', id: 'u', name: 'Write', input: {} }] } },
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'ls' } }, { type: 'tool_use', id: 'c', name: 'MultiEdit', input: { edits: [] } }] } },
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'd', name: 'Edit', input: 'not an object' }] } },
    ];
    expect(findFileWrites(records).map((u) => [u.toolUseId, u.lineIndex, u.blockIndex])).toEqual([['a', 0, 1], ['c', 2, 1]]);
  });

  it("replaces a Write's content with a marker that gives its size and where the whole input is", () => {
    const content = body(120);
    const input = markInput(use('Write', { file_path: '/p/src/a.ts', content }), SAVED)!;
    expect(input.file_path).toBe('/p/src/a.ts');
    expect(input.content).toBe(`[recall: 120 lines (${content.length.toLocaleString('en-US')} chars) left out at resume; the file on disk holds its current text; full input: ${SAVED}]`);
  });

  it("marks both long texts of an Edit and each edit of a MultiEdit, leaving short texts and other keys alone", () => {
    const edit = markInput(use('Edit', { file_path: '/p/a', old_string: body(10), new_string: body(12), replace_all: false }), SAVED)!;
    expect(edit.old_string).toMatch(/^\[recall: 10 lines .*; the file on disk holds its current text; full input: /);
    expect(edit.new_string).toMatch(/^\[recall: 12 lines \([\d,]+ chars\) left out at resume; full input: /);
    expect(edit.replace_all).toBe(false);
    const multi = markInput(use('MultiEdit', { file_path: '/p/a', edits: [{ old_string: 'x', new_string: body(20) }, { old_string: body(9), new_string: 'y' }] }), SAVED)!;
    expect(multi.edits).toEqual([
      { old_string: 'x', new_string: expect.stringMatching(/^\[recall: 20 lines/) },
      { old_string: expect.stringMatching(/^\[recall: 9 lines/), new_string: 'y' },
    ]);
  });

  it('never marks a text twice, and gives null when nothing is long enough to mark', () => {
    const once = markInput(use('Write', { file_path: '/p/a', content: body(50) }), SAVED)!;
    expect(markInput(use('Write', once), SAVED)).toBeNull();
    expect(markInput(use('Edit', { file_path: '/p/a', old_string: 'a', new_string: 'b' }), SAVED)).toBeNull();
  });

  it('selects inputs from forkMinChars up that the markers at least halve, and none it must keep whole', () => {
    const big = use('Write', { file_path: '/p/a', content: body(80) }, 'big');
    const kept = use('Write', { file_path: '/p/b', content: body(80) }, 'kept');
    const small = use('Edit', { file_path: '/p/c', old_string: body(3), new_string: body(4) }, 'small');
    // Long enough in total, but most of it is not file text: marking its one long text would not halve it.
    const meagre = use('Edit', { file_path: '/p/d', old_string: 'x'.repeat(300), new_string: 'y', note: 'z'.repeat(800) }, 'meagre');
    expect(markInput(meagre, SAVED)).not.toBeNull();
    const chosen = selectInputReplacements([big, kept, small, meagre], rules(['kept']));
    expect(chosen.map((r) => r.use.toolUseId)).toEqual(['big']);
    const [only] = chosen;
    expect(only!.before).toBe(JSON.stringify(big.input).length);
    expect(only!.after).toBe(JSON.stringify(only!.input).length);
    expect(only!.after).toBeLessThanOrEqual(only!.before / 2);
    expect(big.input.content).toBe(body(80));
  });
});
