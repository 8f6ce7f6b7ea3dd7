import { describe, expect, it } from 'vitest';
import { isDenied, judgeText, judgeToolOutput, looksBinary, refuseByInput } from '../../../src/endless/eligibility.js';

const thresholds = { minChars: 100, readMinChars: 1000, denylist: ['mcp__secret__*', 'WebFetch'] };
const structured = { requireStructured: true };
const bash = (n: number) => ({ stdout: 'x'.repeat(n), stderr: '', interrupted: false, isImage: false });
const read = (n: number) => ({ type: 'text', file: { filePath: '/a', content: 'y'.repeat(n), numLines: 1, startLine: 1, totalLines: 1 } });

describe('eligibility', () => {
  it('accepts a known tool output over the threshold and hands back its text', () => {
    expect(judgeToolOutput('Bash', bash(150), thresholds, structured)).toEqual({ eligible: true, text: 'x'.repeat(150) });
  });

  it('leaves outputs under the threshold alone', () => {
    expect(judgeToolOutput('Bash', bash(99), thresholds, structured).eligible).toBe(false);
  });

  it('never compresses Edit, Write, MultiEdit or NotebookEdit, whatever their size', () => {
    for (const tool of ['Edit', 'Write', 'MultiEdit', 'NotebookEdit']) {
      expect(judgeToolOutput(tool, { content: 'z'.repeat(100_000) }, thresholds, structured)).toMatchObject({ eligible: false, reason: `${tool} output is never compressed` });
      expect(judgeText(tool, 'z'.repeat(100_000), thresholds).eligible).toBe(false);
    }
  });

  it('asks more of Read results than of other tools', () => {
    expect(judgeToolOutput('Read', read(500), thresholds, structured).eligible).toBe(false);
    expect(judgeToolOutput('Read', read(1000), thresholds, structured).eligible).toBe(true);
  });

  it('honours the denylist by exact name and by prefix', () => {
    expect(isDenied('WebFetch', thresholds.denylist)).toBe(true);
    expect(isDenied('mcp__secret__read', thresholds.denylist)).toBe(true);
    expect(isDenied('mcp__public__read', thresholds.denylist)).toBe(false);
    expect(judgeToolOutput('WebFetch', { result: 'r'.repeat(500) }, thresholds, structured)).toMatchObject({ eligible: false });
  });

  it('refuses unknown tools and unknown shapes', () => {
    expect(judgeToolOutput('Frobnicate', bash(500), thresholds, structured)).toMatchObject({ eligible: false, reason: 'unknown tool Frobnicate' });
    expect(judgeToolOutput('Bash', { out: 'x'.repeat(500) }, thresholds, structured)).toMatchObject({ eligible: false, reason: 'unknown Bash output shape' });
  });

  it('refuses a plain-string response of a built-in tool in a live hook, which cannot mirror it back', () => {
    expect(judgeToolOutput('Bash', 'x'.repeat(500), thresholds, structured).eligible).toBe(false);
    expect(judgeToolOutput('Bash', 'x'.repeat(500), thresholds, { requireStructured: false }).eligible).toBe(true);
    expect(judgeToolOutput('mcp__s__t', 'x'.repeat(500), thresholds, structured).eligible).toBe(true);
  });

  it('refuses output that looks binary', () => {
    expect(looksBinary('abc\u0000def')).toBe(true);
    expect(looksBinary(`${'\uFFFD'.repeat(5)}${'a'.repeat(100)}`)).toBe(true);
    expect(looksBinary('plain text')).toBe(false);
    expect(judgeToolOutput('Bash', { ...bash(0), stdout: `\u0000${'x'.repeat(500)}` }, thresholds, structured)).toMatchObject({ eligible: false, reason: 'output looks binary' });
  });
});

describe('refuseByInput', () => {
  it('refuses calls that read an output recall saved, so nothing is compressed twice in a circle', () => {
    const root = '/home/u/.recall/endless';
    expect(refuseByInput('Read', { file_path: `${root}/s/toolu_1.txt`, offset: 100, limit: 50 }, root)).toBe('the call reads an output recall saved');
    expect(refuseByInput('Bash', { command: `sed -n 1,400p ${root}/s/toolu_1.txt` }, root)).toBe('the call reads an output recall saved');
    expect(refuseByInput('Bash', { command: 'npm test' }, root)).toBeNull();
  });

  it('refuses a Read of an explicit range, which the agent asked for line by line', () => {
    expect(refuseByInput('Read', { file_path: '/p/a.ts', offset: 10 }, '/x')).toBe('a Read of an explicit range');
    expect(refuseByInput('Read', { file_path: '/p/a.ts', limit: 200 }, '/x')).toBe('a Read of an explicit range');
    expect(refuseByInput('Read', { file_path: '/p/a.ts' }, '/x')).toBeNull();
    expect(refuseByInput('Grep', { pattern: 'x', offset: 3 }, '/x')).toBeNull();
  });
});
