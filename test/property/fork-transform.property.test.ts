import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkForkedLines, resultIds } from '../../src/endless/check-fork.js';
import { isRecallError } from '../../src/core/errors.js';
import { applyReplacements, findToolResults, sessionIdsOf, type ForkedLines, type Replacement } from '../../src/endless/fork-transcript.js';
import { judgeText, refuseByInput } from '../../src/endless/eligibility.js';
import { findFileWrites, type InputReplacement } from '../../src/endless/resume-inputs.js';
import { findSuperseded, selectForResume } from '../../src/endless/resume-rules.js';
import { parseSnapshot } from '../../src/endless/transcript-snapshot.js';
import { session, type Json, type Session } from './session-arbitraries.js';

/** A session, a random subset of its tool results with random replacement texts, and a new id. */
const fork = session.chain((s) => {
  const refs = findToolResults(s.records);
  return fc.record({
    s: fc.constant(s),
    replacements: fc.subarray(refs).chain((chosen) =>
      fc.tuple(...chosen.map(() => fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('[recall: Bash output]\nFull output: /x.txt', `"sessionId":"${s.ids[0]}"`)))).map((texts) =>
        chosen.map((ref, i): Replacement => ({ ref, text: texts[i]! })),
      ),
    ),
    newId: fc.uuid(),
  });
});

/** The value with every `sessionId` field (at any depth) that holds an old id set to the new one. */
function withSessionIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => withSessionIds(v, ids));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    Object.defineProperty(out, key, {
      value: key === 'sessionId' && typeof v === 'string' && ids.has(v) ? ids.get(v) : withSessionIds(v, ids),
      enumerable: true, writable: true, configurable: true,
    });
  }
  return out;
}

/** Every `sessionId` string anywhere in the value. */
function sessionIdValues(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) sessionIdValues(v, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'sessionId' && typeof v === 'string') found.push(v);
      else sessionIdValues(v, found);
    }
  }
  return found;
}

const chain = (records: readonly Json[]): string[] => records.map((r) => `${String(r.uuid)}<${String(r.parentUuid)}`);

/** The lines of the file the transform would write (every line ends with a newline). */
function writtenLines(forked: ForkedLines): string[] {
  const bytes = Buffer.concat(forked.chunks);
  expect(bytes.length).toBe(forked.size);
  const text = bytes.toString('utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
}

function forkLines(lines: readonly string[], records: readonly Json[], replacements: readonly Replacement[], ids: ReadonlyMap<string, string>): string[] {
  const forked = applyReplacements(lines.map((line) => Buffer.from(line)), records, replacements, ids);
  const out = writtenLines(forked);
  // The rebuilt lines it reports are the ones it writes.
  for (const [i, line] of forked.rebuilt) expect(line.toString('utf8')).toBe(out[i]);
  return out;
}

function run({ s, replacements, newId }: { s: Session; replacements: Replacement[]; newId: string }) {
  const ids = new Map(sessionIdsOf(s.records).map((id) => [id, newId] as const));
  const out = forkLines(s.lines, s.records, replacements, ids);
  return { ids, out, after: out.map((line) => JSON.parse(line) as unknown) };
}

describe('the Endless fork transform under fuzzing', () => {
  it('never throws and writes one JSON object per input line', () => {
    fc.assert(
      fc.property(fork, (input) => {
        const { out, after } = run(input);
        expect(out).toHaveLength(input.s.lines.length);
        for (const value of after) expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a tool_result for every tool_use and the uuid/parentUuid chain unchanged', () => {
    fc.assert(
      fc.property(fork, (input) => {
        const { out, after } = run(input);
        expect(resultIds(after as Json[])).toEqual(resultIds(input.s.records));
        expect(chain(after as Json[])).toEqual(chain(input.s.records));
        expect(checkForkedLines(input.s.records, out)).toMatchObject({ ok: true, problems: [] });
      }),
      { numRuns: 400 },
    );
  });

  it('rewrites every sessionId to the new id and changes nothing else in lines without a replacement', () => {
    fc.assert(
      fc.property(fork, (input) => {
        const { ids, out, after } = run(input);
        const replaced = new Set(input.replacements.map((r) => r.ref.lineIndex));
        after.forEach((value, i) => {
          for (const id of sessionIdValues(value)) expect(ids.has(id)).toBe(false);
          if (replaced.has(i)) return;
          expect(value).toEqual(withSessionIds(input.s.records[i], ids));
          if (!sessionIdValues(input.s.records[i]).some((id) => ids.has(id))) expect(out[i]).toBe(input.s.lines[i]);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('changes only the chosen tool_result contents and toolUseResult in lines with a replacement', () => {
    fc.assert(
      fc.property(fork, (input) => {
        const { ids, after } = run(input);
        for (const { ref, text } of input.replacements) {
          const line = after[ref.lineIndex] as { message: { content: Json[] }; toolUseResult?: unknown };
          const block = line.message.content[ref.blockIndex]!;
          expect(block.content).toEqual(ref.contentForm === 'string' ? text : [{ type: 'text', text }]);
          expect(block.tool_use_id).toBe(ref.toolUseId);
        }
        const byLine = new Map<number, Set<number>>();
        for (const { ref } of input.replacements) byLine.set(ref.lineIndex, (byLine.get(ref.lineIndex) ?? new Set()).add(ref.blockIndex));
        for (const [lineIndex, blocks] of byLine) {
          // Blank out what the transform may change; everything else must match the input.
          const strip = (record: unknown): unknown => {
            const copy = structuredClone(record) as { message: { content: Json[] }; toolUseResult?: unknown };
            for (const b of blocks) copy.message.content[b]!.content = null;
            delete copy.toolUseResult;
            return copy;
          };
          expect(strip(after[lineIndex])).toEqual(strip(withSessionIds(input.s.records[lineIndex], ids)));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('replaces only the chosen calls\' inputs beside the chosen results, keeping every call, result and the chain', () => {
    let replacedInputs = 0;
    // Round-tripped through JSON as a stored input is: fc.jsonValue may give -0, which JSON writes as 0.
    const storedInput = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((value) => JSON.parse(JSON.stringify(value)) as InputReplacement['input']);
    const withInputs = fork.chain((input) =>
      fc.subarray(findFileWrites(input.s.records)).chain((uses) =>
        fc.tuple(...uses.map(() => storedInput)).map((values) => ({
          ...input,
          inputs: uses.map((use, i): InputReplacement => ({ use, input: values[i]!, before: 0, after: 0 })),
        })),
      ),
    );
    fc.assert(
      fc.property(withInputs, ({ s, replacements, inputs, newId }) => {
        const ids = new Map(sessionIdsOf(s.records).map((id) => [id, newId] as const));
        const forked = applyReplacements(s.lines.map((line) => Buffer.from(line)), s.records, replacements, ids, inputs);
        const out = writtenLines(forked);
        const after = out.map((line) => JSON.parse(line) as Json);
        const changed = new Set([...replacements.map((r) => r.ref.lineIndex), ...inputs.map((r) => r.use.lineIndex)]);
        expect(checkForkedLines(s.records, out)).toMatchObject({ ok: true, problems: [] });
        expect(checkForkedLines(s.records, out, changed)).toMatchObject({ ok: true, problems: [] });
        for (const { use, input } of inputs) {
          const block = (after[use.lineIndex] as { message: { content: Json[] } }).message.content[use.blockIndex]!;
          expect(block).toMatchObject({ type: 'tool_use', id: use.toolUseId, name: use.toolName });
          expect(block.input).toEqual(input);
          replacedInputs += 1;
        }
        // Lines with an input replacement and no result replacement differ from the input in those inputs only.
        const resultLines = new Set(replacements.map((r) => r.ref.lineIndex));
        for (const lineIndex of new Set(inputs.map((r) => r.use.lineIndex))) {
          if (resultLines.has(lineIndex)) continue;
          const strip = (record: unknown): unknown => {
            const copy = structuredClone(record) as { message: { content: Json[] } };
            for (const { use } of inputs) if (use.lineIndex === lineIndex) copy.message.content[use.blockIndex]!.input = null;
            return copy;
          };
          expect(strip(after[lineIndex])).toEqual(strip(withSessionIds(s.records[lineIndex], ids)));
        }
      }),
      { numRuns: 300 },
    );
    // The runs did replace inputs.
    expect(replacedInputs).toBeGreaterThan(50);
  });

  it('passes its own checks when the results to replace are chosen by the resume rules', () => {
    fc.assert(
      fc.property(session, fc.nat(4), fc.nat(20), fc.nat(20), fc.uuid(), (s, keepRecent, minChars, forkMinChars, newId) => {
        const chosen = selectForResume(findToolResults(s.records), { minChars, readMinChars: minChars, forkMinChars, denylist: ['Grep'] }, keepRecent, '/saved').map((c) => c.ref);
        const replacements = chosen.map((ref) => ({ ref, text: `[recall: ${ref.toolName} output]\nFull output: /x/${ref.toolUseId}.txt` }));
        const out = forkLines(s.lines, s.records, replacements, new Map(sessionIdsOf(s.records).map((id) => [id, newId] as const)));
        expect(checkForkedLines(s.records, out)).toMatchObject({ ok: true, problems: [] });
      }),
      { numRuns: 300 },
    );
  });

  it('adds to the live rules only superseded file results and other tools from forkMinChars up, never the last results, images or the denylist', () => {
    const seen = { superseded: 0, resumeOnly: 0 };
    fc.assert(
      fc.property(session, fc.nat(4), fc.nat(30), fc.nat(30), (s, keepRecent, minChars, forkMinChars) => {
        const refs = findToolResults(s.records);
        const thresholds = { minChars, readMinChars: minChars * 2, forkMinChars, denylist: ['Grep'] };
        const chosen = selectForResume(refs, thresholds, keepRecent, '/saved');
        const superseded = findSuperseded(refs);
        const recent = new Set(refs.slice(Math.max(0, refs.length - keepRecent)).map((r) => r.toolUseId));
        for (const { ref, supersededBy, live } of chosen) {
          if (supersededBy !== null) seen.superseded += 1;
          if (!live) seen.resumeOnly += 1;
          expect(recent.has(ref.toolUseId) || ref.hasImage || ref.toolName === 'Grep').toBe(false);
          expect(supersededBy).toBe(superseded.get(ref.toolUseId) ?? null);
          if (live) expect(judgeText(ref.toolName, ref.text, thresholds).eligible).toBe(true);
          else {
            expect(ref.text.length).toBeGreaterThanOrEqual(forkMinChars);
            if (ref.toolName === 'Read' || ref.toolName === 'Edit' || ref.toolName === 'Write') expect(supersededBy).not.toBeNull();
          }
        }
        // Everything the live rules take, the resume rules take too.
        const taken = new Set(chosen.map((c) => c.ref.toolUseId));
        refs.forEach((ref, i) => {
          const live = i < refs.length - keepRecent && !ref.hasImage && !ref.text.startsWith('[recall: ') && judgeText(ref.toolName, ref.text, thresholds).eligible && refuseByInput(ref.toolName, ref.toolInput, '/saved') === null;
          if (live) expect(taken.has(ref.toolUseId)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
    // The runs did exercise what they check.
    expect(seen.superseded).toBeGreaterThan(20);
    expect(seen.resumeOnly).toBeGreaterThan(20);
  });

  it('reads any file into a snapshot of parsed lines or refuses it with TRANSCRIPT_UNREADABLE, never another throw', () => {
    const file = fc.oneof(
      session.map((s) => `${s.lines.join('\n')}\n`),
      fc.tuple(session, fc.nat()).map(([s, cut]) => { const text = s.lines.join('\n'); return text.slice(0, text.length - (cut % 40)); }),
      fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '  ', '{}', '[]', '\uFEFF{"a":1}')), { maxLength: 6 }).map((lines) => lines.join('\n')),
    );
    fc.assert(
      fc.property(file, (text) => {
        let snapshot: ReturnType<typeof parseSnapshot>;
        try {
          snapshot = parseSnapshot('/t.jsonl', Buffer.from(text), 0);
        } catch (err) {
          expect(isRecallError(err, 'TRANSCRIPT_UNREADABLE')).toBe(true);
          return;
        }
        expect(snapshot.lines).toHaveLength(snapshot.records.length);
        expect(snapshot.records.length).toBeGreaterThan(0);
        snapshot.lines.forEach((line, i) => expect(JSON.parse(line.toString('utf8').replace(/^\uFEFF/, ''))).toEqual(snapshot.records[i]));
      }),
      { numRuns: 400 },
    );
  });

  it('rewrites a sessionId holding a backslash or a quote (regression: the raw id was looked for, not its JSON form)', () => {
    const records = [{ uuid: 'u1', parentUuid: null, sessionId: 'a\\b"c', type: 'user', message: { role: 'user', content: 'hi' } }];
    const lines = records.map((r) => JSON.stringify(r));
    const [out] = forkLines(lines, records, [], new Map([['a\\b"c', 'new-id']]));
    expect(JSON.parse(out!)).toEqual({ ...records[0], sessionId: 'new-id' });
  });

  it('never throws when a replaced tool result belongs to a tool named like an Object.prototype member', () => {
    fc.assert(
      fc.property(fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'), fc.string(), (name, text) => {
        const records: Json[] = [
          { uuid: 'u1', parentUuid: null, type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name, input: {} }] } },
          { uuid: 'u2', parentUuid: 'u1', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'long output' }] }, toolUseResult: { stdout: 'long output' } },
        ];
        const lines = records.map((r) => JSON.stringify(r));
        const [ref] = findToolResults(records);
        const out = forkLines(lines, records, [{ ref: ref!, text }], new Map());
        expect(checkForkedLines(records, out).ok).toBe(true);
      }),
      { numRuns: 20 },
    );
  });
});
