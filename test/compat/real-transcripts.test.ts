/**
 * Compatibility with real Claude Code transcripts from ../shared/fixtures (present in the
 * development workspace, absent from a user's clone: the suite skips itself then).
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactSecrets } from '../../src/redact/redact-secrets.js';
import { readTranscript } from '../../src/transcript/read-transcript.js';
import { typedUserMessages } from '../support/typed-messages.mjs';

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

  it('summarises a subagent transcript, whose lines are all sidechain, as one subagent entry', async () => {
    const subagents = files.filter((file) => file.includes('/subagents/'));
    expect(subagents.length).toBeGreaterThan(0);
    for (const file of subagents) {
      const result = await readTranscript(file);
      expect(result.stats.entries).toBe(1);
      expect(result.text).toMatch(/^ {2}\[subagent, \d+ turns?\] task: /);
    }
  });

  it.each(files.map((file) => [name(file), file]))('shows every message the user typed in %s', async (_name, file) => {
    const typed = typedUserMessages(readFileSync(file, 'utf8'));
    const { text } = await readTranscript(file, { maxChars: 12_000 });
    const prompt = text.replace(/\s+/g, ' ');
    for (const message of typed) expect(prompt).toContain(message.slice(0, 50));
  });

  it('reads the large session with a sensible turn count and both of its ends', async () => {
    const result = await readTranscript(join(dir, LARGE), { maxChars: 12_000 });
    // 1,863 lines, most of them progress and snapshots; about 190 user and 300 assistant lines.
    expect(result.turns).toBeGreaterThan(300);
    expect(result.turns).toBeLessThan(700);
    expect(result.totalChars).toBeGreaterThan(12_000);
    expect(result.text.startsWith('User: Implement spotter-gqc')).toBe(true);
    expect(result.text).toMatch(/\[… [\d,]+ events left out …\]/);
    expect(result.text).toContain('User (asks): did you push?');
    // The session's last words, and its report of the work before the question, whole.
    expect(result.stats.conclusion?.keptShare).toBe(1);
    expect(result.text).toMatch(/Assistant: All done\. The \*\*spotter-gqc\*\* epic is fully implemented and pushed\.[^…]*6 new builder tests, 4 controller tests, 1 LiveView test/);
    // Failures are told, and left-out runs are marked once each.
    expect(result.text.match(/→ FAILED/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
    expect(result.stats.markers).toBeLessThanOrEqual(15);
    // The compaction summary stands for the turns before it, without its preamble or its code sections.
    expect(result.text).toContain('[Summary of the session before this point, written by the agent');
    expect(result.text).toContain('Primary Request and Intent');
    expect(result.text).not.toContain('Files and Code Sections');
    expect(result.text).not.toContain('This session is being continued from a previous conversation');
  });

  it('renders the short session as user and assistant turns with tool lines', async () => {
    const result = await readTranscript(join(dir, 'claude-code/short.jsonl'), { maxChars: 12_000 });
    expect(result.text.startsWith('User: mix phx.server doesnt seem to start')).toBe(true);
    expect(result.text).toContain('  [tool Bash: mix phx.server 2>&1 | head -80]');
    expect(result.text).not.toContain('The user is having trouble'); // a thinking block
  });

  it('redacts every rendered transcript, and a second pass finds nothing more', async () => {
    for (const file of files) {
      const { text } = await readTranscript(file, { maxChars: 1_000_000 });
      const once = redactSecrets(text);
      expect(redactSecrets(once.text)).toEqual({ text: once.text, count: 0 });
    }
  });
});
