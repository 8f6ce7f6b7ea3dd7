import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRecallError } from '../../../src/core/errors.js';
import { foldSession } from '../../../src/transcript/fold-session.js';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { readTranscript, transcriptReadError } from '../../../src/transcript/read-transcript.js';
import { renderSession } from '../../../src/transcript/render-session.js';

const fixtures = fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url));
const fixture = (name: string): string => join(fixtures, name);

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recall-read-transcript-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectCode(promise: Promise<unknown>, code: 'TRANSCRIPT_MISSING' | 'TRANSCRIPT_UNREADABLE'): Promise<void> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isRecallError(err, code)).toBe(true);
}

describe('readTranscript on a Claude Code transcript', () => {
  it('renders what the user and the assistant said and the tools used, in order', async () => {
    const { text } = await readTranscript(fixture('claude-code-short.jsonl'));
    expect(text).toContain('User: The checkout tests fail. Always use pnpm here, never npm.');
    expect(text).toContain("Assistant: I'll run the test suite first.\n  [tool Bash: pnpm test -- checkout]");
    expect(text).toContain('  [tool Read: src/checkout.ts]');
    expect(text).toContain('  [tool Edit: src/checkout.ts]');
    expect(text).toContain('User: Thanks. Remember to run pnpm lint before every commit.');
    expect(text.indexOf('User: The checkout')).toBeLessThan(text.indexOf('User: Thanks.'));
  });

  it('marks the failed test run and shows its output as tool output, cut short', async () => {
    const { text } = await readTranscript(fixture('claude-code-short.jsonl'));
    expect(text).toMatch(/\[tool Bash: pnpm test -- checkout\] → FAILED/);
    expect(text).toMatch(/\n {2}\[tool output\] .*FAIL src\/checkout\.test\.ts[\s\S]*\[…[\d,]+ chars…\]/);
  });

  it('leaves out injected context, thinking, meta lines and bookkeeping lines', async () => {
    const { text } = await readTranscript(fixture('claude-code-short.jsonl'));
    expect(text).not.toMatch(/SHOULD_NOT_APPEAR/);
    expect(text).not.toContain('<system-reminder>');
    expect(text).not.toContain('recall-context');
  });

  it("shows a subagent's lines as one summary and the compaction summary as the agent's account", async () => {
    const { text } = await readTranscript(fixture('claude-code-short.jsonl'));
    expect(text).toMatch(/\n {2}\[subagent, 1 turns?\] task: \(none\) \| answer: .*SIDECHAIN_ANSWER_SUMMARISED/);
    expect(text).toMatch(/\[Summary of the session before this point, written by the agent [^\]]*\]\n {2}.*COMPACT_SUMMARY_SHOWN/);
  });

  it('counts the malformed line and the cut-off last line as skipped', async () => {
    const result = await readTranscript(fixture('claude-code-short.jsonl'));
    expect(result.skippedLines).toBe(2);
  });

  it('counts every event read, tool calls and results included, and the typed messages shown', async () => {
    const result = await readTranscript(fixture('claude-code-short.jsonl'));
    // 2 user messages, 2 assistant texts, 3 tool calls, 3 tool results, a subagent line, a compaction summary
    expect(result.turns).toBe(12);
    expect(result.stats).toMatchObject({ typedMessages: 2, typedMessagesShown: 2 });
    expect(result.firstRequest).toBe('The checkout tests fail. Always use pnpm here, never npm.');
  });

  it('gives the same text as parsing, folding and rendering the whole file at once', async () => {
    const lines = readFileSync(fixture('claude-code-short.jsonl'), 'utf8').split('\n');
    const expected = renderSession(foldSession(lines.flatMap((l) => parseTranscriptLine(l))), 400).text;
    const result = await readTranscript(fixture('claude-code-short.jsonl'), { maxChars: 400 });
    expect(result.text).toBe(expected);
    expect(result.text.length).toBeLessThanOrEqual(400);
    expect(result.totalChars).toBeGreaterThan(400);
    // Within 400 characters the user's two messages still come first.
    expect(result.stats.typedMessagesShown).toBe(2);
  });
});

describe('readTranscript on other shapes', () => {
  it('reads a Factory droid session and skips its session_start line', async () => {
    const result = await readTranscript(fixture('factory-droid.jsonl'));
    expect(result.text.startsWith('User: The login form crashes on submit. Use yarn in this repo.')).toBe(true);
    expect(result.text).toContain('  [tool Execute: yarn test login]');
    expect(result.text).toContain('  [tool ApplyPatch: src/login/form.ts]');
    expect(result.text).not.toContain('THINKING_SHOULD_NOT_APPEAR');
    expect(result.text).not.toContain('Fix login crash');
    expect(result.skippedLines).toBe(0);
  });

  it('reads simplified role/content lines and counts non-object JSON as skipped', async () => {
    const result = await readTranscript(fixture('simplified.jsonl'));
    expect(result.text).toBe(
      [
        'User: Use tabs for indentation in this repo.',
        'Assistant: Understood, tabs it is.',
        '',
        'User: And never push to main directly.',
        'Assistant: Noted.',
        '  [tool Bash: git config branch.main.pushRemote no_push]',
        '  [tool output] ok',
      ].join('\n'),
    );
    expect(result.skippedLines).toBe(3);
  });

  it('handles a byte order mark and CRLF line ends', async () => {
    const result = await readTranscript(fixture('crlf-bom.jsonl'));
    expect(result).toMatchObject({ text: 'User: Prefer vitest over jest.\nAssistant: Will use vitest.', turns: 2, skippedLines: 0 });
  });

  it('returns empty text for an empty file', async () => {
    const path = join(dir, 'empty.jsonl');
    await writeFile(path, '');
    expect(await readTranscript(path)).toMatchObject({ text: '', turns: 0, skippedLines: 0, totalChars: 0, firstRequest: null });
  });

  it('streams a large transcript into the budget, keeping the first request and the newest ones', async () => {
    const path = join(dir, 'large.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      lines.push(JSON.stringify({ type: 'user', message: { role: 'user', content: `request ${i} ${'lorem ipsum '.repeat(10)}` } }));
      lines.push(JSON.stringify({ type: 'progress', data: { type: 'hook_progress', filler: 'x'.repeat(200) } }));
    }
    await writeFile(path, lines.join('\n'));
    const result = await readTranscript(path, { maxChars: 12_000 });
    expect(result.turns).toBe(20_000);
    expect(result.text.length).toBeLessThanOrEqual(12_000);
    expect(result.text.startsWith('User: request 0 ')).toBe(true);
    expect(result.text).toContain('User: request 19999 ');
    expect(result.text).toMatch(/\[… [\d,]+ events left out …\]/);
  });
});

describe('readTranscript errors', () => {
  it('throws TRANSCRIPT_MISSING for a file that does not exist', async () => {
    await expectCode(readTranscript(join(dir, 'nope.jsonl')), 'TRANSCRIPT_MISSING');
  });

  it('throws TRANSCRIPT_UNREADABLE for a directory', async () => {
    await expectCode(readTranscript(dir), 'TRANSCRIPT_UNREADABLE');
  });

  it('throws TRANSCRIPT_UNREADABLE for a file that looks binary', async () => {
    const path = join(dir, 'binary.jsonl');
    await writeFile(path, Buffer.from([0x7b, 0x22, 0x00, 0x01, 0x02, 0x7d, 0x0a]));
    await expectCode(readTranscript(path), 'TRANSCRIPT_UNREADABLE');
  });

  it('throws TRANSCRIPT_UNREADABLE for a UTF-16 file', async () => {
    const path = join(dir, 'utf16.jsonl');
    await writeFile(path, Buffer.from('{"role":"user","content":"hi"}\n', 'utf16le'));
    await expectCode(readTranscript(path), 'TRANSCRIPT_UNREADABLE');
  });

  it.skipIf(process.getuid?.() === 0)('throws TRANSCRIPT_UNREADABLE for a file without read permission', async () => {
    const path = join(dir, 'locked.jsonl');
    await writeFile(path, '{"role":"user","content":"hi"}\n');
    await chmod(path, 0o000);
    await expectCode(readTranscript(path), 'TRANSCRIPT_UNREADABLE');
  });

  it.each([
    ['ENOENT', 'TRANSCRIPT_MISSING'],
    ['EACCES', 'TRANSCRIPT_UNREADABLE'],
    ['EISDIR', 'TRANSCRIPT_UNREADABLE'],
    ['EIO', 'TRANSCRIPT_UNREADABLE'],
  ])('maps errno %s to %s', (errno, code) => {
    const cause = Object.assign(new Error(`${errno}: failed`), { code: errno });
    const err = transcriptReadError(cause, '/x.jsonl');
    expect(err.code).toBe(code);
    expect(err.cause).toBe(cause);
  });

  it('maps an error without an errno code to TRANSCRIPT_UNREADABLE', () => {
    expect(transcriptReadError(new Error('odd'), '/x.jsonl').code).toBe('TRANSCRIPT_UNREADABLE');
  });

  it('keeps the errno error as the cause', async () => {
    const err: unknown = await readTranscript(join(dir, 'nope.jsonl')).catch((e: unknown) => e);
    expect(isRecallError(err) && (err.cause as { code?: string }).code).toBe('ENOENT');
  });
});

describe('readTranscript: the conclusion', () => {
  it("keeps the session's last long assistant message whole, and older long ones only as far as they can be shown", async () => {
    const say = (i: number) => JSON.stringify({ type: 'assistant', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: `Report ${i}: ${'the migration ran and the totals reconcile. '.repeat(60)}end of report ${i}.` }] } });
    const lines = [JSON.stringify({ type: 'user', message: { role: 'user', content: 'Migrate every table.' } })];
    for (let i = 0; i < 30; i += 1) lines.push(say(i), JSON.stringify({ type: 'user', message: { role: 'user', content: `next ${i}` } }));
    lines.pop();
    const file = join(dir, 'long-reports.jsonl');
    await writeFile(file, lines.join('\n'));
    const { text, stats } = await readTranscript(file, { maxChars: 12_000 });
    expect(stats.conclusion).toMatchObject({ keptShare: 1 });
    expect(text).toContain('end of report 29.');
    const older = text.split('\n').find((line) => line.includes('Report 28:')) ?? '';
    expect(older).toMatch(/\[…[\d,]+ chars…\]/);
    expect(older.length).toBeLessThan(1_000);
  });
});
