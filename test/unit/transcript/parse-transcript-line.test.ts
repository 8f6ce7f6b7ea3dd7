import { describe, it, expect } from 'vitest';
import { parseTranscriptLine, parseTranscriptRecord } from '../../../src/transcript/parse-transcript-line.js';
import { RECALL_CONTEXT_CLOSE_TAG, RECALL_CONTEXT_OPEN_TAG } from '../../../src/transcript/recall-markers.js';
import type { SessionEvent } from '../../../src/transcript/session-events.js';

const line = (value: unknown): string => JSON.stringify(value);
const userLine = (content: unknown, extra: Record<string, unknown> = {}): string =>
  line({ type: 'user', isSidechain: false, message: { role: 'user', content }, uuid: 'u', ...extra });
const assistantLine = (content: unknown, id = 'msg_1', extra: Record<string, unknown> = {}): string =>
  line({ type: 'assistant', isSidechain: false, message: { id, type: 'message', role: 'assistant', content }, ...extra });
const toolUse = (name: string, input: unknown): unknown => ({ type: 'tool_use', id: 'toolu_1', name, input });

/** One short line per event: `kind:text`. */
function show(events: readonly SessionEvent[]): string[] {
  return events.map((e) => {
    switch (e.kind) {
      case 'user':
        return `user:${e.text}`;
      case 'assistant':
        return `assistant:${e.text}`;
      case 'tool-call':
        return `call:${e.summary}`;
      case 'tool-result':
        return `${e.isError ? 'error' : 'result'}:${e.output.text}`;
      case 'compaction':
        return `compaction:${e.text}`;
      case 'sidechain':
        return `side-${e.role}:${e.text}`;
      case 'interrupt':
        return 'interrupt';
    }
  });
}
const parse = (text: string): string[] => show(parseTranscriptLine(text));

describe('parseTranscriptLine: Claude Code lines', () => {
  it('turns a user line with string content into what the user typed', () => {
    expect(parseTranscriptLine(userLine('Always use pnpm.'))).toEqual([{ kind: 'user', text: 'Always use pnpm.', pasted: [] }]);
  });

  it('keeps the message id on assistant text so split lines can be joined', () => {
    expect(parseTranscriptLine(assistantLine([{ type: 'text', text: 'Let me look.' }], 'msg_A'))).toEqual([
      { kind: 'assistant', text: 'Let me look.', fullChars: 12, messageId: 'msg_A' },
    ]);
  });

  it('joins several text blocks of one line into one event', () => {
    expect(parse(assistantLine([{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }]))).toEqual(['assistant:First.\n\nSecond.']);
  });

  it('skips thinking blocks', () => {
    expect(parse(assistantLine([{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'Done.' }]))).toEqual(['assistant:Done.']);
  });

  it('summarises a Bash tool call on one line, with its command and id', () => {
    expect(parseTranscriptLine(assistantLine([toolUse('Bash', { command: 'npm test' })]))).toEqual([
      { kind: 'tool-call', summary: '[tool Bash: npm test]', name: 'Bash', id: 'toolu_1', command: 'npm test' },
    ]);
  });

  it('names the file a Read or Edit call touches', () => {
    const events = parseTranscriptLine(assistantLine([toolUse('Read', { file_path: 'src/x.ts' }), toolUse('Edit', { file_path: 'src/x.ts', old_string: 'a', new_string: 'b' })]));
    expect(show(events)).toEqual(['call:[tool Read: src/x.ts]', 'call:[tool Edit: src/x.ts]']);
    expect(events.map((e) => (e.kind === 'tool-call' ? e.target : undefined))).toEqual(['src/x.ts', 'src/x.ts']);
  });

  it('keeps text and tool calls of one line in their order', () => {
    expect(parse(assistantLine([{ type: 'text', text: 'Checking.' }, toolUse('Bash', { command: 'ls' }), { type: 'text', text: 'Now the tests.' }]))).toEqual([
      'assistant:Checking.',
      'call:[tool Bash: ls]',
      'assistant:Now the tests.',
    ]);
  });

  it('reads a tool result with string content, its id and its full length', () => {
    const events = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't9', content: '3 passed' }]));
    expect(events).toMatchObject([{ kind: 'tool-result', chars: 8, tests: '3 passed', isError: false, id: 't9' }]);
    expect(events[0]?.kind === 'tool-result' && events[0].output.text).toBe('3 passed');
  });

  it('reads a tool result with text blocks and marks images', () => {
    const content = [{ type: 'text', text: 'line one' }, { type: 'image', source: {} }];
    expect(parse(userLine([{ type: 'tool_result', tool_use_id: 't', content }]))).toEqual(['result:line one\n[image]']);
  });

  it('cuts a long tool result to about 300 characters, keeping its head and its tail', () => {
    const content = `${'head '.repeat(100)}${'tail '.repeat(100)}`;
    const [event] = parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content }]));
    expect(event?.kind === 'tool-result' && event.output.text.length).toBeLessThanOrEqual(300);
    expect(event?.kind === 'tool-result' && event.output.text).toMatch(/^head head .* \[…[\d,]+ chars…\] .*tail tail$/);
    expect(event?.kind === 'tool-result' && event.chars).toBe(content.trim().length);
  });

  it('marks a failed tool result as an error', () => {
    expect(parse(userLine([{ type: 'tool_result', tool_use_id: 't', content: 'Exit code 1', is_error: true }]))).toEqual(['error:Exit code 1']);
  });

  it('drops empty tool results', () => {
    expect(parseTranscriptLine(userLine([{ type: 'tool_result', tool_use_id: 't', content: '' }]))).toEqual([]);
  });

  it('reads sidechain lines as the subagent they belong to', () => {
    expect(parse(userLine('Find the config loader.', { isSidechain: true }))).toEqual(['side-user:Find the config loader.']);
    expect(parse(assistantLine([{ type: 'text', text: 'It is in src/config.' }], 'm', { isSidechain: true }))).toEqual(['side-assistant:It is in src/config.']);
  });

  it('skips meta lines injected by the client', () => {
    expect(parseTranscriptLine(userLine('<local-command-caveat>Caveat</local-command-caveat> text', { isMeta: true }))).toEqual([]);
  });

  it('reads a compaction summary as one, without its preamble', () => {
    const text = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nThe user chose PostgreSQL 16.';
    expect(parse(userLine(text, { isCompactSummary: true }))).toEqual(['compaction:The user chose PostgreSQL 16.']);
  });

  it('reads an interrupt as one, not as something the user typed', () => {
    expect(parse(userLine([{ type: 'text', text: '[Request interrupted by user for tool use]' }]))).toEqual(['interrupt']);
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
    const events = parseTranscriptLine(
      line({ type: 'message', id: 'm2', message: { role: 'assistant', content: [{ type: 'text', text: 'On it.' }, toolUse('Execute', { command: 'yarn test' })] } }),
    );
    expect(show(events)).toEqual(['assistant:On it.', 'call:[tool Execute: yarn test]']);
  });

  it('reads Factory droid tool results from user messages', () => {
    expect(parse(line({ type: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] } }))).toEqual(['result:ok']);
  });

  it('reads role and content lines without a message object', () => {
    expect(parse(line({ role: 'user', content: 'Use tabs.' }))).toEqual(['user:Use tabs.']);
    expect(parse(line({ role: 'assistant', content: [{ type: 'text', text: 'OK.' }] }))).toEqual(['assistant:OK.']);
  });

  it('reads type and content lines without a message object', () => {
    expect(parse(line({ type: 'user', content: 'Never push to main.' }))).toEqual(['user:Never push to main.']);
  });

  it('reads a tool role line as a tool result', () => {
    expect(parse(line({ role: 'tool', content: 'done' }))).toEqual(['result:done']);
  });

  it('skips system role lines', () => {
    expect(parseTranscriptLine(line({ role: 'system', content: 'You are helpful.' }))).toEqual([]);
  });
});

describe('parseTranscriptLine: injected context, noise and secrets', () => {
  it('strips system-reminder blocks from text', () => {
    expect(parse(userLine('Fix it.\n<system-reminder>\nhook output\n</system-reminder>'))).toEqual(['user:Fix it.']);
  });

  it('strips system-reminder blocks from tool results', () => {
    const content = '1→const x = 1;\n\n<system-reminder>\nconsider malware\n</system-reminder>\n';
    expect(parse(userLine([{ type: 'tool_result', tool_use_id: 't', content }]))).toEqual(['result:1→const x = 1;']);
  });

  it("strips recall's own injected context between its marker tags", () => {
    const text = `Before ${RECALL_CONTEXT_OPEN_TAG}\n- Use pnpm\n${RECALL_CONTEXT_CLOSE_TAG} after`;
    expect(parse(userLine(text))).toEqual(['user:Before  after']);
  });

  it('drops a line whose only text is injected context', () => {
    expect(parseTranscriptLine(userLine('<system-reminder>only this</system-reminder>'))).toEqual([]);
  });

  it('keeps what the user typed after a slash command, naming the command', () => {
    const text = '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>';
    expect(parseTranscriptLine(userLine(text))).toEqual([{ kind: 'user', text: 'the auth module', pasted: [], command: '/review' }]);
  });

  it('drops a slash command run without arguments', () => {
    expect(parseTranscriptLine(userLine('<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>'))).toEqual([]);
  });

  it('drops local command output', () => {
    expect(parseTranscriptLine(userLine('<local-command-stdout>Reconnected.</local-command-stdout>'))).toEqual([]);
  });

  it('drops background task notifications', () => {
    const text = '<task-notification>\n<task-id>b0</task-id>\n<status>completed</status>\n</task-notification>\nRead the output file.';
    expect(parseTranscriptLine(userLine(text))).toEqual([]);
  });

  it('redacts what the user typed, the assistant said and a summary held', () => {
    const key = `sk-ant-api03-${'a1B2'.repeat(10)}`;
    const events = [userLine(`use ${key}`), assistantLine([{ type: 'text', text: `set ${key}` }]), userLine(`summary ${key}`, { isCompactSummary: true })].flatMap(parseTranscriptLine);
    expect(JSON.stringify(events)).not.toContain('a1B2a1B2');
    expect(show(events).every((text) => text.includes('[REDACTED:'))).toBe(true);
  });

  it('keeps what the user pasted apart from what they typed', () => {
    const log = Array.from({ length: 6 }, (_, i) => `2026-03-02T08:10:0${i}.000Z ERROR job ${i} failed: connection refused`).join('\n');
    const [event] = parseTranscriptLine(userLine(`The nightly job fails:\n\n${log}\n\nWhy?`));
    expect(event?.kind).toBe('user');
    if (event?.kind !== 'user') return;
    expect(event.text).toBe('The nightly job fails:\n[pasted log #1]\nWhy?');
    expect(event.pasted).toHaveLength(1);
    expect(event.pasted[0]).toMatchObject({ kind: 'log', lines: 6 });
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
  ])('returns no events for %s', (_name, input) => {
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
    expect(parse(JSON.stringify(odd[2]))).toEqual(['assistant:loose string', 'call:[tool unknown]']);
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
    expect(show(parseTranscriptRecord({ role: 'user', content: 'hi' }))).toEqual(['user:hi']);
    expect(parseTranscriptRecord('not an object')).toEqual([]);
  });
});

describe("parseTranscriptLine: Claude Code's bash mode", () => {
  const userText = (content: string) => JSON.stringify({ type: 'user', message: { role: 'user', content } });

  it('reads the command the user ran as a call of theirs, and its output as tool output, not as their words', () => {
    expect(parseTranscriptLine(userText('<bash-input>git status</bash-input>'))).toEqual([
      { kind: 'tool-call', name: 'bash mode', summary: '[the user ran in the shell: git status]', command: 'git status', byUser: true },
    ]);
    const output = parseTranscriptLine(userText('<bash-stdout>On branch main\nnothing to commit</bash-stdout><bash-stderr></bash-stderr>'));
    expect(output).toMatchObject([{ kind: 'tool-result', output: { text: 'On branch main\nnothing to commit' }, isError: false }]);
    expect(output.some((e) => e.kind === 'user')).toBe(false);
  });

  it('keeps words the user typed around the tags as theirs, and reads an error on stderr as a failure', () => {
    const events = parseTranscriptLine(userText('why does this fail? <bash-stdout></bash-stdout><bash-stderr>fatal: not a git repository</bash-stderr>'));
    expect(events).toMatchObject([{ kind: 'user', text: 'why does this fail?' }, { kind: 'tool-result', isError: true }]);
  });
});
