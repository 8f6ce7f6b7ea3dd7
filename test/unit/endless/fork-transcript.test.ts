import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkForkedLines, resultIds } from '../../../src/endless/check-fork.js';
import { applyReplacements, findToolResults, rewriteSessionIds, sessionIdsOf } from '../../../src/endless/fork-transcript.js';
import { selectForResume } from '../../../src/endless/resume-rules.js';
import { measureConversation } from '../../../src/endless/measure-conversation.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/endless/session.jsonl', import.meta.url));
const lines = readFileSync(FIXTURE, 'utf8').trimEnd().split('\n');
const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const OLD = '11111111-2222-4333-8444-555555555555';
const NEW = '99999999-8888-4777-8666-555555555555';
const thresholds = { minChars: 4000, readMinChars: 16_000, denylist: [], forkMinChars: 1000 };
const select = (refs: ReturnType<typeof findToolResults>, keepRecent: number) => selectForResume(refs, thresholds, keepRecent, '/nowhere').map((c) => c.ref);

function fork(keepRecent: number) {
  const chosen = select(findToolResults(records), keepRecent);
  const replacements = chosen.map((ref) => ({ ref, text: `[recall: ${ref.toolName} short]\nFull output: /x/${ref.toolUseId}.txt` }));
  return { chosen, out: written(applyReplacements(lines.map((l) => Buffer.from(l)), records, replacements, new Map([[OLD, NEW]]))) };
}

/** The lines of the file the transform would write. */
function written(forked: ReturnType<typeof applyReplacements>): string[] {
  return Buffer.concat(forked.chunks).toString('utf8').slice(0, -1).split('\n');
}

describe('findToolResults', () => {
  it('pairs every tool_result with its tool_use name and input, in order', () => {
    const refs = findToolResults(records);
    expect(refs.map((r) => r.toolName)).toEqual(['Bash', 'Read', 'Grep', 'Edit', 'Task', 'Bash', 'Bash']);
    expect(refs[0]).toMatchObject({ toolUseId: 'toolu_fixture_01', isError: true, contentForm: 'string', toolInput: { command: 'npm test', description: 'Run the test suite' } });
    expect(refs[4]).toMatchObject({ contentForm: 'blocks', hasImage: false });
    expect(typeof refs[0]!.toolUseResult).toBe('string');
  });
});

describe('selectForResume on the fixture session', () => {
  it('picks large results of known tools, never Edit, and keeps the last N whole', () => {
    expect(fork(3).chosen.map((r) => r.toolUseId)).toEqual(['toolu_fixture_01', 'toolu_fixture_02', 'toolu_fixture_03']);
    expect(fork(0).chosen.map((r) => r.toolUseId)).toEqual(['toolu_fixture_01', 'toolu_fixture_02', 'toolu_fixture_03', 'toolu_fixture_05', 'toolu_fixture_07']);
  });

  it('does not compress text recall already put in place', () => {
    const refs = findToolResults(records).map((r) => ({ ...r, text: `[recall: Bash output]\n${r.text}` }));
    expect(select(refs, 0)).toEqual([]);
  });
});

describe('applyReplacements', () => {
  it('rewrites the session id and leaves every other line byte for byte', () => {
    const { chosen, out } = fork(3);
    expect(chosen.length).toBeGreaterThan(0);
    const changed = new Set(chosen.map((r) => r.lineIndex));
    expect(out).toHaveLength(lines.length);
    out.forEach((line, i) => {
      if (!changed.has(i)) expect(line).toBe(lines[i]!.split(`"sessionId":"${OLD}"`).join(`"sessionId":"${NEW}"`));
    });
    expect(out.join('\n')).not.toContain(OLD);
    expect(sessionIdsOf(out.map((l) => JSON.parse(l) as Record<string, unknown>))).toEqual([NEW]);
  });

  it('replaces the tool_result content and the toolUseResult in their own shapes', () => {
    const { out } = fork(0);
    // Transcript lines are loosely shaped JSON; the test reads fields off them directly.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    type Loose = any;
    const after = out.map((l) => JSON.parse(l) as Loose);
    const byId = (id: string): Loose => after.find((r: Loose) => Array.isArray(r.message?.content) && r.message.content.some((b: Loose) => b.tool_use_id === id));
    const bash = byId('toolu_fixture_01');
    expect(bash.message.content[0]).toMatchObject({ type: 'tool_result', is_error: true, content: '[recall: Bash short]\nFull output: /x/toolu_fixture_01.txt' });
    expect(bash.toolUseResult).toBe('[recall: Bash short]\nFull output: /x/toolu_fixture_01.txt');
    const read = byId('toolu_fixture_02');
    expect(read.toolUseResult).toMatchObject({ type: 'text', file: { filePath: '/work/demo/src/billing.ts', totalLines: 420, numLines: 2, content: '[recall: Read short]\nFull output: /x/toolu_fixture_02.txt' } });
    const task = byId('toolu_fixture_05');
    expect(task.message.content[0].content).toEqual([{ type: 'text', text: '[recall: Task short]\nFull output: /x/toolu_fixture_05.txt' }]);
    expect(task.toolUseResult).toMatchObject({ agentId: 'a123', status: 'completed', content: [{ type: 'text', text: '[recall: Task short]\nFull output: /x/toolu_fixture_05.txt' }] });
    const edit = byId('toolu_fixture_04');
    expect(edit.toolUseResult.originalFile.length).toBeGreaterThan(10_000);
  });

  it('keeps the uuid chain and a tool_result for every tool_use', () => {
    const { out } = fork(0);
    const check = checkForkedLines(records, out);
    expect(check).toMatchObject({ ok: true, problems: [] });
    expect(resultIds(check.records)).toEqual(resultIds(records));
    expect(resultIds(records).size).toBe(7);
  });

  it('shrinks what the model reads on resume to the replacements plus the results left whole', () => {
    const { chosen, out } = fork(0);
    const before = measureConversation(records);
    const after = measureConversation(out.map((l) => JSON.parse(l) as Record<string, unknown>));
    const kept = findToolResults(records).filter((r) => !chosen.some((c) => c.toolUseId === r.toolUseId));
    const replacementChars = chosen.reduce((n, r) => n + `[recall: ${r.toolName} short]\nFull output: /x/${r.toolUseId}.txt`.length, 0);
    expect(kept.map((r) => r.toolName)).toEqual(['Edit', 'Bash']);
    expect(after.toolResultChars).toBe(replacementChars + kept.reduce((n, r) => n + r.text.length, 0));
    expect(before.chars - after.chars).toBe(before.toolResultChars - after.toolResultChars);
  });
});

describe('rewriteSessionIds', () => {
  it('touches only sessionId keys, not the same text inside a string', () => {
    const line = JSON.stringify({ sessionId: OLD, message: { content: `"sessionId":"${OLD}"` } });
    const out = rewriteSessionIds(line, new Map([[OLD, NEW]]));
    expect(JSON.parse(out)).toEqual({ sessionId: NEW, message: { content: `"sessionId":"${OLD}"` } });
  });
});

describe('applyReplacements output', () => {
  it('gathers the input lines without copying them and counts every byte it will write', () => {
    const input = lines.map((l) => Buffer.from(l));
    const forked = applyReplacements(input, records, [], new Map());
    expect(forked.chunks.filter((chunk) => chunk.length > 1)).toEqual(input);
    expect(forked.chunks.filter((chunk) => chunk.length > 1).every((chunk, i) => chunk === input[i])).toBe(true);
    expect(forked.size).toBe(Buffer.concat(forked.chunks).length);
    expect(forked.rebuilt.size).toBe(0);
  });

  it('reports each rebuilt line as written, new session id included', () => {
    const [ref] = select(findToolResults(records), 0);
    const forked = applyReplacements(lines.map((l) => Buffer.from(l)), records, [{ ref: ref!, text: 'short' }], new Map([[OLD, NEW]]));
    const line = forked.rebuilt.get(ref!.lineIndex)!.toString('utf8');
    expect(line).toBe(written(forked)[ref!.lineIndex]);
    expect(JSON.parse(line)).toMatchObject({ sessionId: NEW, toolUseResult: 'short' });
  });
});

describe('applyReplacements on lines that are views of one buffer', () => {
  it('rewrites ids inside each line only, whatever lies between the lines', () => {
    const a = JSON.stringify({ sessionId: OLD, n: 1 });
    const b = JSON.stringify({ nested: { sessionId: OLD }, n: 2 });
    // Between the lines: bytes that would match if a hit could span or sit outside a line.
    const gap = `"sessionId":"${OLD}"`;
    const bytes = Buffer.from(`${a}${gap}${b}\n`);
    const lines = [bytes.subarray(0, a.length), bytes.subarray(a.length + gap.length, a.length + gap.length + b.length)];
    const forked = applyReplacements(lines, [JSON.parse(a), JSON.parse(b)], [], new Map([[OLD, NEW]]));
    expect(written(forked).map((l) => JSON.parse(l))).toEqual([{ sessionId: NEW, n: 1 }, { nested: { sessionId: NEW }, n: 2 }]);
    expect(forked.size).toBe(a.length + b.length + 2);
  });
});

describe('checkForkedLines', () => {
  it('reports a line that is not JSON, a broken chain and a lost tool result', () => {
    expect(checkForkedLines(records, ['{oops', ...lines.slice(1)]).problems).toEqual(['line 1 is not valid JSON']);
    const rechained = lines.map((l, i) => (i === 3 ? l.replace(/"parentUuid":"[^"]+"/, '"parentUuid":"elsewhere"') : l));
    expect(checkForkedLines(records, rechained).problems).toContain('the uuid/parentUuid chain changed');
    const index = findToolResults(records)[0]!.lineIndex;
    const lost = lines.map((l, i) => (i === index ? JSON.stringify({ ...records[i], message: { role: 'user', content: 'gone' } }) : l));
    expect(checkForkedLines(records, lost).problems).toEqual(['tool results lost: toolu_fixture_01']);
  });
});

describe('checkForkedLines on rebuilt lines only', () => {
  it('parses just the rebuilt lines and still reports a lost result or a changed chain in them', () => {
    const index = findToolResults(records)[0]!.lineIndex;
    const changed = new Set([index]);
    const garbage = lines.map((l, i) => (i === index ? l : '{not parsed'));
    expect(checkForkedLines(records, garbage, changed)).toMatchObject({ ok: true, problems: [] });
    const lost = lines.map((l, i) => (i === index ? JSON.stringify({ ...records[i], message: { role: 'user', content: 'gone' } }) : l));
    expect(checkForkedLines(records, lost, changed).problems).toEqual(['tool results lost: toolu_fixture_01']);
    const rechained = lines.map((l, i) => (i === index ? JSON.stringify({ ...records[i], parentUuid: 'elsewhere' }) : l));
    expect(checkForkedLines(records, rechained, changed).problems).toEqual(['the uuid/parentUuid chain changed']);
  });
});

describe('rewriteSessionIds with spacing', () => {
  it('rewrites keys written with spaces around the colon as well', () => {
    const line = `{"sessionId" : "${OLD}", "nested": {"sessionId":"${OLD}"}, "other": "${OLD}"}`;
    expect(JSON.parse(rewriteSessionIds(line, new Map([[OLD, NEW]])))).toEqual({ sessionId: NEW, nested: { sessionId: NEW }, other: OLD });
  });

  it('rewrites ids of another length and two old ids in one line, leaving characters outside ASCII alone', () => {
    const line = JSON.stringify({ sessionId: 'a', text: 'é → ✓', nested: { sessionId: 'bb' }, other: 'a' });
    expect(JSON.parse(rewriteSessionIds(line, new Map([['a', 'long-new-id'], ['bb', 'x']])))).toEqual({ sessionId: 'long-new-id', text: 'é → ✓', nested: { sessionId: 'x' }, other: 'a' });
  });
});
