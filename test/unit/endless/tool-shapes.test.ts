import { describe, expect, it } from 'vitest';
import { extractToolText, rebuildToolResponse, toolKind } from '../../../src/endless/tool-shapes.js';

const bash = { stdout: 'line 1\nline 2', stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
const read = { type: 'text', file: { filePath: '/p/a.ts', content: 'a\nb\nc', numLines: 3, startLine: 1, totalLines: 3 } };
const grepContent = { mode: 'content', filenames: [], numFiles: 0, content: 'a.ts:1:foo\nb.ts:2:foo', numLines: 2 };
const grepFiles = { mode: 'files_with_matches', filenames: ['a.ts', 'b.ts'], numFiles: 2 };
const glob = { filenames: ['/p/a.ts', '/p/b.ts'], durationMs: 3, numFiles: 2, truncated: false };
const webfetch = { bytes: 100, code: 200, codeText: 'OK', result: '# Page', durationMs: 50, url: 'https://x.test' };
const websearch = { query: 'q', results: [{ tool_use_id: 'srv', content: [{ title: 'T', url: 'https://t.test' }] }, 'Summary text'], durationSeconds: 1 };
const task = { agentId: 'a1', content: [{ type: 'text', text: 'report' }], prompt: 'p', status: 'completed', totalDurationMs: 1, totalTokens: 2, totalToolUseCount: 3, usage: {} };
const taskOutput = { retrieval_status: 'timeout', task: { task_id: 't', status: 'running', output: 'log lines' } };

describe('tool shapes', () => {
  it('reads the text of each known tool shape', () => {
    expect(extractToolText('Bash', bash)).toBe('line 1\nline 2');
    expect(extractToolText('Bash', { ...bash, stderr: 'warn: x' })).toBe('line 1\nline 2\n[stderr]\nwarn: x');
    expect(extractToolText('Read', read)).toBe('a\nb\nc');
    expect(extractToolText('Grep', grepContent)).toBe('a.ts:1:foo\nb.ts:2:foo');
    expect(extractToolText('Grep', grepFiles)).toBe('a.ts\nb.ts');
    expect(extractToolText('Glob', glob)).toBe('/p/a.ts\n/p/b.ts');
    expect(extractToolText('WebFetch', webfetch)).toBe('# Page');
    expect(extractToolText('WebSearch', websearch)).toBe('- T (https://t.test)\nSummary text');
    expect(extractToolText('Task', task)).toBe('report');
    expect(extractToolText('TaskOutput', taskOutput)).toBe('log lines');
  });

  it('puts a replacement back into the same shape, keeping every other field and its type', () => {
    expect(rebuildToolResponse('Bash', bash, 'NEW')).toEqual({ ...bash, stdout: 'NEW', stderr: '' });
    expect(rebuildToolResponse('Read', read, 'x\ny')).toEqual({ type: 'text', file: { ...read.file, content: 'x\ny', numLines: 2 } });
    expect(rebuildToolResponse('Grep', grepContent, 'NEW')).toEqual({ ...grepContent, content: 'NEW', numLines: 1 });
    expect(rebuildToolResponse('Grep', grepFiles, 'a\nb\nc')).toEqual({ ...grepFiles, filenames: ['a', 'b', 'c'] });
    expect(rebuildToolResponse('Glob', glob, 'NEW')).toEqual({ ...glob, filenames: ['NEW'] });
    expect(rebuildToolResponse('WebFetch', webfetch, 'NEW')).toEqual({ ...webfetch, result: 'NEW' });
    expect(rebuildToolResponse('WebSearch', websearch, 'NEW')).toEqual({ ...websearch, results: ['NEW'] });
    expect(rebuildToolResponse('Task', task, 'NEW')).toEqual({ ...task, content: [{ type: 'text', text: 'NEW' }] });
    expect(rebuildToolResponse('TaskOutput', taskOutput, 'NEW')).toEqual({ ...taskOutput, task: { ...taskOutput.task, output: 'NEW' } });
  });

  it('does not change the value it was given', () => {
    const copy = structuredClone(read);
    rebuildToolResponse('Read', read, 'NEW');
    expect(read).toEqual(copy);
  });

  it('keeps MCP results in the form they came in: string, block array, or object with content', () => {
    expect(toolKind('mcp__github__get_file')).toBe('mcp');
    expect(rebuildToolResponse('mcp__s__t', 'long text', 'NEW')).toBe('NEW');
    const blocks = [{ type: 'text', text: 'a' }, { type: 'image', data: 'xx', mimeType: 'image/png' }, { type: 'text', text: 'b' }];
    expect(extractToolText('mcp__s__t', blocks)).toBe('a\n\nb');
    expect(rebuildToolResponse('mcp__s__t', blocks, 'NEW')).toEqual([{ type: 'text', text: 'NEW' }, { type: 'image', data: 'xx', mimeType: 'image/png' }]);
    const object = { content: [{ type: 'text', text: 'a' }], structuredContent: { big: 1 }, isError: false };
    expect(rebuildToolResponse('mcp__s__t', object, 'NEW')).toEqual({ content: [{ type: 'text', text: 'NEW' }], isError: false });
  });

  it('answers null for values that are not the tool\'s known shape', () => {
    expect(extractToolText('Bash', { ...bash, isImage: true })).toBeNull();
    expect(extractToolText('Bash', { output: 'x' })).toBeNull();
    expect(extractToolText('Read', { type: 'image', file: { base64: 'x' } })).toBeNull();
    expect(extractToolText('Grep', { filenames: ['a'] })).toBeNull();
    expect(extractToolText('WebFetch', 'text')).toBeNull();
    expect(extractToolText('Task', { content: [{ type: 'image' }] })).toBeNull();
    expect(extractToolText('mcp__s__t', { content: 'x' })).toBeNull();
    expect(extractToolText('Edit', { filePath: 'a' })).toBeNull();
    expect(extractToolText('SomethingNew', { stdout: 'x' })).toBeNull();
  });

  it('treats a plain string as itself for tools that write one on failure', () => {
    expect(extractToolText('Bash', 'Error: Exit code 2\nboom')).toBe('Error: Exit code 2\nboom');
    expect(rebuildToolResponse('Bash', 'Error: Exit code 2', 'NEW')).toBe('NEW');
  });
});
