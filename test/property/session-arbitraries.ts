/**
 * fast-check generators for Claude Code sessions as the Endless fork transform reads them:
 * assistant tool_use lines answered by user tool_result lines (alone or together), toolUseResult
 * values in each tool's shape or junk, one uuid/parentUuid chain, sessionIds at the top level and
 * nested, random extra fields, compact or spaced JSON; Read, Edit and Write calls on two files.
 */
import fc from 'fast-check';

export type Json = Record<string, unknown>;

const TOOL_NAMES = ['Bash', 'Read', 'Grep', 'Glob', 'Task', 'WebFetch', 'Edit', 'Write', 'mcp__srv__tool', 'CustomTool'] as const;

/** File tools name one of two files, so later calls supersede earlier results (Reads sometimes of a range). */
function inputFor(name: string, text: string, pick: number): Json {
  if (name !== 'Read' && name !== 'Edit' && name !== 'Write') return { command: text };
  return { file_path: ['/p/a.ts', '/p/b.ts'][pick % 2], ...(name === 'Read' && pick % 3 === 0 ? { offset: 1, limit: 5 } : {}) };
}

/** Field names a transcript line may carry besides the ones the transform reads. */
const extraFields = fc.dictionary(
  fc.constantFrom('cwd', 'version', 'gitBranch', 'userType', 'requestId', 'timestamp', 'weird key', 'toString', 'isSidechain', 'level'),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

/** A tool's structured output (`toolUseResult`) in the shapes Claude Code writes, or anything. */
function toolUseResultFor(name: string, text: string, pick: number, junk: unknown): unknown {
  const shapes: Record<string, unknown> = {
    Bash: { stdout: text, stderr: '', interrupted: false, isImage: false },
    Read: { type: 'text', file: { filePath: '/p/x.ts', content: text, numLines: 3, startLine: 1, totalLines: 3 } },
    Grep: { mode: 'content', content: text, numLines: 1 },
    Glob: { filenames: text.split('\n'), numFiles: 1 },
    Task: { status: 'completed', content: [{ type: 'text', text }] },
    WebFetch: { result: text, code: 200 },
    mcp__srv__tool: [{ type: 'text', text }],
  };
  return [shapes[name], `Error: ${text}`, junk, undefined][pick % 4];
}

interface Step {
  kind: 'exchange' | 'text' | 'other';
  calls: Array<{ name: string; text: string; form: 'string' | 'blocks' | 'image'; pick: number; junk: unknown }>;
  together: boolean;
  session: number;
  extra: Json;
  nestedSessionId: boolean;
  said: string;
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('exchange', 'exchange', 'text', 'other'),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom(...TOOL_NAMES),
      text: fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constant('say "sessionId":"S0" here')),
      form: fc.constantFrom('string', 'blocks', 'image'),
      pick: fc.nat(),
      junk: fc.jsonValue({ maxDepth: 1 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  together: fc.boolean(),
  session: fc.nat(),
  extra: extraFields,
  nestedSessionId: fc.boolean(),
  said: fc.string({ maxLength: 30 }),
});

/** Session ids: UUIDs as Claude Code writes them, or strings with quotes, backslashes and newlines. */
const sessionId = fc.oneof({ weight: 3, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) });

export interface Session {
  lines: string[];
  records: Json[];
  ids: string[];
}

/** A Claude Code session: assistant tool_use lines answered by user tool_result lines, one uuid chain. */
export const session: fc.Arbitrary<Session> = fc
  .record({ steps: fc.array(step, { minLength: 1, maxLength: 12 }), ids: fc.uniqueArray(sessionId, { minLength: 1, maxLength: 2 }), spaced: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }) })
  .map(({ steps, ids, spaced }) => {
    const records: Json[] = [];
    let parent: string | null = null;
    let n = 0;
    const push = (s: Step, body: Json): void => {
      n += 1;
      const uuid = `uuid-${n}`;
      const sid = ids[s.session % ids.length]!;
      const meta = s.nestedSessionId ? { meta: { sessionId: sid, note: 'nested' } } : {};
      records.push({ ...s.extra, ...meta, parentUuid: parent, uuid, sessionId: sid, ...body });
      parent = uuid;
    };
    steps.forEach((s, i) => {
      if (s.kind === 'other') {
        push(s, { type: 'system', subtype: 'note', content: s.said });
        return;
      }
      if (s.kind === 'text') {
        push(s, { type: 'user', message: { role: 'user', content: s.said } });
        return;
      }
      const calls = s.calls.map((c, j) => ({ ...c, id: `toolu_${i}_${j}` }));
      push(s, {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: s.said }, ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: inputFor(c.name, c.text, c.pick) }))] },
      });
      const resultBlock = (c: (typeof calls)[number]): Json => ({
        type: 'tool_result',
        tool_use_id: c.id,
        content:
          c.form === 'string' ? c.text
          : c.form === 'blocks' ? [{ type: 'text', text: c.text }]
          : [{ type: 'text', text: c.text }, { type: 'image', source: { type: 'base64', data: 'AAAA' } }],
        is_error: c.pick % 5 === 0,
      });
      const groups = s.together ? [calls] : calls.map((c) => [c]);
      for (const group of groups) {
        const toolUseResult = group.length === 1 ? toolUseResultFor(group[0]!.name, group[0]!.text, group[0]!.pick, group[0]!.junk) : undefined;
        push(s, { type: 'user', message: { role: 'user', content: group.map(resultBlock) }, ...(toolUseResult === undefined ? {} : { toolUseResult }) });
      }
    });
    // Claude Code writes compact JSON; some writers put spaces after colons and commas.
    const lines = records.map((r, i) => (spaced[i % spaced.length] ? JSON.stringify(r, null, 1).replace(/\n/g, '') : JSON.stringify(r)));
    return { lines, records: lines.map((l) => JSON.parse(l) as Json), ids };
  });
