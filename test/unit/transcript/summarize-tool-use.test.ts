import { describe, it, expect } from 'vitest';
import {
  TOOL_RESULT_MAX_CHARS,
  TOOL_SUMMARY_MAX_CHARS,
  cutToolResult,
  oneLine,
  summarizeToolUse,
} from '../../../src/transcript/summarize-tool-use.js';

describe('summarizeToolUse', () => {
  it('names the command of a shell call', () => {
    expect(summarizeToolUse('Bash', { command: 'npm test', timeout: 30000 })).toBe('[tool Bash: npm test]');
    expect(summarizeToolUse('Execute', { command: 'yarn build', riskLevel: 'low' })).toBe('[tool Execute: yarn build]');
  });

  it('names the file of a file tool', () => {
    expect(summarizeToolUse('Write', { file_path: 'a.ts', content: 'long content' })).toBe('[tool Write: a.ts]');
    expect(summarizeToolUse('Create', { file_path: 'b.ts', content: 'x' })).toBe('[tool Create: b.ts]');
  });

  it('says where a search looked', () => {
    expect(summarizeToolUse('Grep', { pattern: 'TODO', path: 'src', glob: '*.ts' })).toBe('[tool Grep: TODO in src]');
    expect(summarizeToolUse('Glob', { pattern: '**/*.md' })).toBe('[tool Glob: **/*.md]');
  });

  it('names the file an apply-patch payload updates', () => {
    const input = { input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch' };
    expect(summarizeToolUse('ApplyPatch', input)).toBe('[tool ApplyPatch: src/a.ts]');
  });

  it('falls back to the first string field of an unknown tool', () => {
    expect(summarizeToolUse('mcp__journal__write', { feelings: 'calm', count: 2 })).toBe('[tool mcp__journal__write: calm]');
  });

  it('joins an array of strings', () => {
    expect(summarizeToolUse('LS', { ignore: ['node_modules', 'dist'] })).toBe('[tool LS: node_modules, dist]');
  });

  it('gives just the name when the input says nothing', () => {
    expect(summarizeToolUse('ExitPlanMode', {})).toBe('[tool ExitPlanMode]');
    expect(summarizeToolUse('Odd', 'not an object')).toBe('[tool Odd]');
    expect(summarizeToolUse(undefined, undefined)).toBe('[tool unknown]');
  });

  it('keeps the summary on one line and cut to about 160 characters', () => {
    const summary = summarizeToolUse('Bash', { command: `echo start\n${'word '.repeat(100)}` });
    expect(summary).not.toContain('\n');
    expect(summary.startsWith('[tool Bash: echo start word')).toBe(true);
    expect(summary.endsWith('…]')).toBe(true);
    expect(summary.length).toBeLessThanOrEqual('[tool Bash: ]'.length + TOOL_SUMMARY_MAX_CHARS);
  });
});

describe('oneLine', () => {
  it('does not split a surrogate pair at the cut', () => {
    const cut = oneLine(`${'a'.repeat(8)}😀😀`, 10);
    expect(cut).toBe(`${'a'.repeat(8)}…`);
  });
});

describe('cutToolResult', () => {
  it('leaves a short result alone', () => {
    expect(cutToolResult('ok')).toBe('ok');
    expect(cutToolResult('x'.repeat(TOOL_RESULT_MAX_CHARS))).toBe('x'.repeat(TOOL_RESULT_MAX_CHARS));
  });

  it('keeps the head and the tail of a long result and says how many characters it left out between them', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
    const cut = cutToolResult(lines);
    expect(cut.length).toBeLessThanOrEqual(TOOL_RESULT_MAX_CHARS);
    expect(cut.startsWith('line 0\nline 1\n')).toBe(true);
    expect(cut.endsWith('line 58\nline 59')).toBe(true);
    const omitted = Number(/\[…([\d,]+) chars…\]/.exec(cut)?.[1]?.replace(/,/g, ''));
    expect(cut.length - ` […${omitted.toLocaleString('en-US')} chars…] `.length + omitted).toBe(lines.length);
  });
});
