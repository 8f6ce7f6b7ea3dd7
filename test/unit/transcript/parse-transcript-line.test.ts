import { describe, it, expect } from 'vitest';
import { parseTranscriptLine, parseTranscriptRecord } from '../../../src/transcript/parse-transcript-line.js';
import { RECALL_CONTEXT_CLOSE_TAG, RECALL_CONTEXT_OPEN_TAG } from '../../../src/transcript/recall-markers.js';

const line = (value: unknown): string => JSON.stringify(value);
const userLine = (content: unknown, extra: Record<string, unknown> = {}): string =>
  line({ type: 'user', isSidechain: false, message: { role: 'user', content }, uuid: 'u', ...extra });
const assistantLine = (content: unknown, id = 'msg_1', extra: Record<string, unknown> = {}): string =>
  line({ type: 'assistant', isSidechain: false, message: { id, type: 'message', role: 'assistant', content }, ...extra });
const toolUse = (name: string, input: unknown): unknown => ({ type: 'tool_use', id: 'toolu_1', name, input });

describe('parseTranscriptLine: Claude Code lines', () => {
  it('turns a user line with string content into a user turn', () => {
    expect(parseTranscriptLine(userLine('Always use pnpm.'))).toEqual([{ role: 'user', text: 'Always use pnpm.' }]);
  });

  it('keeps the message id on assistant text so split lines can be joined', () => {
    expect(parseTranscriptLine(assistantLine([{ type: 'text', text: 'Let me look.' }], 'msg_A'))).toEqual([
      { role: 'assistant', text: 'Let me look.', messageId: 'msg_A' },
    ]);
  });

  it('joins several text blocks of one line into one turn', () => {
    const turns = parseTranscriptLine(assistantLine([{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }]));
    expect(turns).toHaveLength(1);
    expect(turns[0]?.text).toBe('First.\n\nSecond.');
  });

  it('skips thinking blocks', () => {
    const turns = parseTranscriptLine(
      assistantLine([
        { type: 'thinking', thinking: 'secret plan', signature: 'x' },
        { type: 'redacted_thinking', data: 'x' },
        { type: 'text', text: 'Done.' },
      ]),
    );
    expect(turns.map((t) => t.text)).toEqual(['Done.']);
  });

  it('renders a Bash tool call as a one-line summary of its command', () => {
    const turns = parseTranscriptLine(assistantLine([toolUse('Bash', { command: 'npm test', description: 'Run tests' })]));
    expect(turns).toEqual([{ role: 'tool', text: '[tool Bash: npm test]', messageId: 'msg_1' }]);
  });

  it('renders Read and Edit calls with the file they touch', () => {
    const turns = parseTranscriptLine(
      assistantLine([
        toolUse('Read', { file_path: 'src/x.ts', limit: 20 }),
        toolUse('Edit', { file_path: 'src/x.ts', old_string: 'a', new_string: 'b' }),
      ]),
    );
    expect(turns.map((t) => t.text)).toEqual(['[tool Read: src/x.ts]', '[tool Edit: src/x.ts]']);
  });

  it('keeps text and tool calls of one line in their order', () => {
    const turns = parseTranscriptLine(
      assistantLine([{ type: 'text', text: 'Checking.' }, toolUse('Bash', { command: 'ls' }), { type: 'text', text: 'Now the tests.' }]),
    );
    expect(turns.map((t) => `${t.role}:${t.text}`)).toEqual(['assistant:Checking.', 'tool:[tool Bash: ls]', 'assistant:Now the tests.']);
  });

  it('renders a tool result with string content', () => {
    const turns = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content: '3 passed' }], { toolUseResult: { stdout: '3 passed' } }));
    expect(turns).toEqual([{ role: 'tool', text: '[result] 3 passed' }]);
  });

  it('renders a tool result with text blocks and marks images', () => {
    const content = [
      { type: 'text', text: 'line one' },
      { type: 'image', source: { type: 'base64', data: 'AAAA', media_type: 'image/png' } },
    ];
    const turns = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content }]));
    expect(turns[0]?.text).toBe('[result] line one\n[image]');
  });

  it('cuts a long tool result to about 300 characters with an ellipsis marker', () => {
    const turns = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(1000) }]));
    const text = turns[0]?.text ?? '';
    expect(text).toBe(`[result] ${'x'.repeat(300)} … [+700 chars]`);
  });

  it('labels a failed tool result as an error', () => {
    const turns = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content: 'Exit code 1', is_error: true }]));
    expect(turns[0]?.text).toBe('[error] Exit code 1');
  });

  it('drops empty tool results', () => {
    expect(parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content: '' }]))).toEqual([]);
  });

  it('skips sidechain lines', () => {
    expect(parseTranscriptLine(userLine('subagent prompt', { isSidechain: true }))).toEqual([]);
    expect(parseTranscriptLine(assistantLine([{ type: 'text', text: 'subagent' }], 'm', { isSidechain: true }))).toEqual([]);
  });

  it('skips meta lines injected by the client', () => {
    expect(parseTranscriptLine(userLine('<local-command-caveat>Caveat</local-command-caveat> text', { isMeta: true }))).toEqual([]);
  });

  it('skips compaction summaries, whose turns are earlier in the same file', () => {
    expect(parseTranscriptLine(userLine('This session is being continued...', { isCompactSummary: true }))).toEqual([]);
  });

  it.each([
    ['progress', { type: 'progress', data: { type: 'hook_progress' } }],
    ['file-history-snapshot', { type: 'file-history-snapshot', snapshot: {} }],
    ['queue-operation', { type: 'queue-operation', operation: 'enqueue', content: 'queued text' }],
    ['summary', { type: 'summary', summary: 'A title' }],
    ['system', { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' }],
    ['an unknown type', { type: 'attachment', content: 'something', message: { role: 'user', content: 'x' } }],
    ['session_start', { type: 'session_start', id: 's', title: 'Fix login' }],
  ])('skips %s lines', (_name, record) => {
    expect(parseTranscriptLine(line(record))).toEqual([]);
  });
});

describe('parseTranscriptLine: Factory droid and simplified lines', () => {
  it('reads Factory droid message lines with content blocks', () => {
    const turns = parseTranscriptLine(
      line({
        type: 'message',
        id: 'm2',
        message: { role: 'assistant', content: [{ type: 'text', text: 'On it.' }, toolUse('Execute', { command: 'yarn test' })] },
      }),
    );
    expect(turns.map((t) => t.text)).toEqual(['On it.', '[tool Execute: yarn test]']);
  });

  it('reads Factory droid tool results from user messages', () => {
    const turns = parseTranscriptLine(
      line({ type: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] } }),
    );
    expect(turns).toEqual([{ role: 'tool', text: '[result] ok' }]);
  });

  it('reads role and content lines without a message object', () => {
    expect(parseTranscriptLine(line({ role: 'user', content: 'Use tabs.' }))).toEqual([{ role: 'user', text: 'Use tabs.' }]);
    expect(parseTranscriptLine(line({ role: 'assistant', content: [{ type: 'text', text: 'OK.' }] }))).toEqual([
      { role: 'assistant', text: 'OK.' },
    ]);
  });

  it('reads type and content lines without a message object', () => {
    expect(parseTranscriptLine(line({ type: 'user', content: 'Never push to main.' }))).toEqual([
      { role: 'user', text: 'Never push to main.' },
    ]);
  });

  it('reads a tool role line as a tool result', () => {
    expect(parseTranscriptLine(line({ role: 'tool', content: 'done' }))).toEqual([{ role: 'tool', text: '[result] done' }]);
  });

  it('skips system role lines', () => {
    expect(parseTranscriptLine(line({ role: 'system', content: 'You are helpful.' }))).toEqual([]);
  });
});

describe('parseTranscriptLine: injected context and noise', () => {
  it('strips system-reminder blocks from text', () => {
    const turns = parseTranscriptLine(userLine('Fix it.\n<system-reminder>\nhook output\n</system-reminder>'));
    expect(turns).toEqual([{ role: 'user', text: 'Fix it.' }]);
  });

  it('strips system-reminder blocks from tool results', () => {
    const content = '1→const x = 1;\n\n<system-reminder>\nconsider malware\n</system-reminder>\n';
    const turns = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content }]));
    expect(turns[0]?.text).toBe('[result] 1→const x = 1;');
  });

  it("strips recall's own injected context between its marker tags", () => {
    const text = `Before ${RECALL_CONTEXT_OPEN_TAG}\n- Use pnpm\n${RECALL_CONTEXT_CLOSE_TAG} after`;
    expect(parseTranscriptLine(userLine(text))[0]?.text).toBe('Before  after');
  });

  it('drops a line whose only text is injected context', () => {
    expect(parseTranscriptLine(userLine('<system-reminder>only this</system-reminder>'))).toEqual([]);
  });

  it('keeps a slash command and its arguments without the wrapper tags', () => {
    const text = '<command-message>mcp</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>';
    expect(parseTranscriptLine(userLine(text))[0]?.text).toBe('/review\nthe auth module');
  });

  it('drops local command output', () => {
    expect(parseTranscriptLine(userLine('<local-command-stdout>Reconnected.</local-command-stdout>'))).toEqual([]);
  });

  it('drops background task notifications', () => {
    const text = '<task-notification>\n<task-id>b0</task-id>\n<status>completed</status>\n</task-notification>\nRead the output file.';
    expect(parseTranscriptLine(userLine(text))).toEqual([]);
  });
});

describe('parseTranscriptLine: bad input', () => {
  it.each([
    ['malformed JSON', '{"type":"user","message":'],
    ['an empty line', ''],
    ['whitespace', '   \t '],
    ['an array', '[1,2,3]'],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['a number', '42'],
    ['plain text', 'not json at all'],
  ])('returns no turns for %s', (_name, input) => {
    expect(parseTranscriptLine(input)).toEqual([]);
  });

  it('never throws on odd field types', () => {
    const odd = [
      { type: 'user', message: null },
      { type: 'user', message: { content: 42 } },
      { type: 'assistant', message: { content: [null, 1, 'loose string', { type: 'text', text: 5 }, { type: 'tool_use' }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', content: { weird: true } }] } },
      { type: 'message', message: 'nope' },
      { role: 42, content: 'x' },
    ];
    for (const record of odd) expect(() => parseTranscriptLine(JSON.stringify(record))).not.toThrow();
    expect(parseTranscriptLine(JSON.stringify(odd[2]))).toEqual([
      { role: 'assistant', text: 'loose string' },
      { role: 'tool', text: '[tool unknown]' },
    ]);
  });

  it('never throws on random bytes', () => {
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 500; i += 1) {
      const chars = Array.from({ length: next() % 60 }, () => String.fromCharCode(next() % 128));
      expect(() => parseTranscriptLine(chars.join(''))).not.toThrow();
    }
  });

  it('accepts an already parsed record', () => {
    expect(parseTranscriptRecord({ role: 'user', content: 'hi' })).toEqual([{ role: 'user', text: 'hi' }]);
    expect(parseTranscriptRecord('not an object')).toEqual([]);
  });
});
