/**
 * Compatibility with real Claude Code transcripts from ../shared/fixtures (present in the
 * development workspace, absent from a user's clone: the suite skips itself then).
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactSecrets } from '../../src/redact/redact-secrets.js';
import { readTranscript } from '../../src/transcript/read-transcript.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const dir = resolve(here, '../../../shared/fixtures/transcripts');
const LARGE = 'claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl';

function jsonlFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(root, name))
    .sort();
}

const files = jsonlFiles(dir);
const name = (file: string): string => relative(dir, file);

describe.skipIf(!existsSync(dir))('real transcripts', () => {
  it('finds the fixture files, subagent transcripts included', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(files.some((file) => file.includes('subagents'))).toBe(true);
  });

  it.each(files.map((file) => [name(file), file]))('reads %s into clean text within the budget', async (_name, file) => {
    const result = await readTranscript(file, { maxChars: 12_000 });
    expect(result.text.length).toBeLessThanOrEqual(12_000);
    expect(result.text).not.toContain('<system-reminder>');
    expect(result.text).not.toContain('</system-reminder>');
    expect(result.text).not.toContain('<local-command-stdout>');
    expect(result.skippedLines).toBe(0);
  });

  it('yields no turns for subagent transcripts, whose lines are all sidechain', async () => {
    const subagents = files.filter((file) => file.includes('/subagents/'));
    expect(subagents.length).toBeGreaterThan(0);
    for (const file of subagents) expect((await readTranscript(file)).turns).toBe(0);
  });

  it('reads the large session quickly, with a sensible turn count and both of its ends', async () => {
    const started = performance.now();
    const result = await readTranscript(join(dir, LARGE), { maxChars: 12_000 });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(3000);
    // 1,863 lines, most of them progress and snapshots; about 190 user and 300 assistant lines.
    expect(result.turns).toBeGreaterThan(300);
    expect(result.turns).toBeLessThan(700);
    expect(result.totalChars).toBeGreaterThan(12_000);
    expect(result.text.startsWith('User: Implement spotter-gqc')).toBe(true);
    expect(result.text).toContain('characters omitted');
    expect(result.text).toContain('User: did you push?');
    // The compaction summary paraphrases earlier turns and is left out.
    expect(result.text).not.toContain('This session is being continued from a previous conversation');
  });

  it('renders the short session as user and assistant turns with tool lines', async () => {
    const result = await readTranscript(join(dir, 'claude-code/short.jsonl'), { maxChars: 12_000 });
    expect(result.text.startsWith('User: mix phx.server doesnt seem to start')).toBe(true);
    expect(result.text).toContain('  [tool Bash: mix phx.server 2>&1 | head -80]');
    expect(result.text).not.toContain('The user is having trouble'); // a thinking block
  });

  it('redacts every rendered transcript in well under a second each', async () => {
    for (const file of files) {
      const { text } = await readTranscript(file, { maxChars: 1_000_000 });
      const started = performance.now();
      const once = redactSecrets(text);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(redactSecrets(once.text)).toEqual({ text: once.text, count: 0 });
    }
  });
});
