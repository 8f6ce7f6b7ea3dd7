import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../src/core/errors.js';
import { sourceWords } from '../../src/transcript/attribute-source.js';
import { foldSession } from '../../src/transcript/fold-session.js';
import { parseJsonObjectLine, parseTranscriptRecord } from '../../src/transcript/parse-transcript-line.js';
import { firstRequestOf, readTranscript } from '../../src/transcript/read-transcript.js';
import { renderSession } from '../../src/transcript/render-session.js';
import type { SessionEvent } from '../../src/transcript/session-events.js';
import { useTempDirs } from '../support/temp-dir.js';
import { INJECTED, transcriptLine } from './transcript-arbitraries.js';

const tempDir = useTempDirs();

/** A line that always renders: someone saying a few words. */
const sayLine = fc
  .tuple(fc.constantFrom('user', 'assistant'), fc.lorem({ maxCount: 40 }))
  .map(([role, words]) => JSON.stringify({ type: role, message: { role, content: words } }));

/** A transcript file as a client leaves it: mixed line endings, maybe a BOM, maybe a cut-off last line. */
const transcriptFile = fc
  .record({
    lines: fc.array(fc.tuple(fc.oneof(transcriptLine, sayLine), fc.constantFrom('\n', '\r\n')), { maxLength: 25 }),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
    cutLastLineAt: fc.option(fc.nat(), { nil: undefined }),
  })
  .map(({ lines, bom, finalNewline, cutLastLineAt }) => {
    let body = lines.map(([line, eol]) => `${line}${eol}`).join('');
    if (!finalNewline) body = body.replace(/\r?\n$/, '');
    if (cutLastLineAt !== undefined && lines.length > 0) {
      const last = lines[lines.length - 1]![0];
      body = body.slice(0, body.length - last.length + (cutLastLineAt % (last.length + 1)) - (finalNewline ? lines[lines.length - 1]![1].length : 0));
    }
    return `${bom ? '\uFEFF' : ''}${body}`;
  });

/** What reading the file must give, computed over the whole text at once (readline's line ends). */
function expected(text: string, maxChars: number) {
  const events: SessionEvent[] = [];
  let skippedLines = 0;
  let cwd: string | null = null;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const record = parseJsonObjectLine(line);
    if (record === undefined) {
      if (line.replace(/^\uFEFF/, '').trim() !== '') skippedLines += 1;
      continue;
    }
    if (cwd === null && typeof record['cwd'] === 'string' && record['cwd'] !== '') cwd = record['cwd'];
    events.push(...parseTranscriptRecord(record));
  }
  const entries = foldSession(events);
  const { text: rendered, stats } = renderSession(entries, maxChars);
  return { text: rendered, turns: events.length, skippedLines, totalChars: stats.fullChars, stats, firstRequest: firstRequestOf(entries), cwd, sources: sourceWords(entries) };
}

describe('readTranscript under fuzzing', () => {
  it('never throws on a mix of valid lines, garbage, CRLF, a BOM and a cut-off last line, and stays within maxChars', async () => {
    let n = 0;
    let truncated = 0;
    const dir = tempDir('recall-prop-read-');
    const maxChars = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 120 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3000 }) });
    await fc.assert(
      fc.asyncProperty(transcriptFile, maxChars, async (content, maxChars) => {
        const path = join(dir, `t${(n += 1)}.jsonl`);
        writeFileSync(path, content);
        const result = await readTranscript(path, { maxChars });
        if (result.totalChars > maxChars) truncated += 1;
        expect(result.text.length).toBeLessThanOrEqual(maxChars);
        expect(result.text).not.toContain(INJECTED);
        // The streamed result equals the whole file parsed, folded and rendered at once.
        expect({ ...result, sources: result.sources() }).toEqual(expected(readFileSync(path, 'utf8'), maxChars));
      }),
      { numRuns: 200 },
    );
    expect(truncated).toBeGreaterThan(30);
  });

  it('refuses a file with a NUL byte near its start with a coded error, never another throw', async () => {
    let n = 0;
    const dir = tempDir('recall-prop-nul-');
    await fc.assert(
      fc.asyncProperty(transcriptFile, fc.nat(), async (content, at) => {
        const index = at % (Math.min(content.length, 4000) + 1);
        const path = join(dir, `b${(n += 1)}.jsonl`);
        writeFileSync(path, `${content.slice(0, index)}\0${content.slice(index)}`);
        const err: unknown = await readTranscript(path).then(() => undefined, (e: unknown) => e);
        expect(isRecallError(err, 'TRANSCRIPT_UNREADABLE')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
