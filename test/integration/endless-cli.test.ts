import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compactObservationReply } from '../fixtures/endless/compact-reply.mjs';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/endless/session.jsonl', import.meta.url));
const SESSION = '11111111-2222-4333-8444-555555555555';

let h: Harness;
let claudeDir: string;
let projectDir: string;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  claudeDir = join(h.root, 'claude');
  projectDir = join(claudeDir, 'projects', '-work-demo');
  mkdirSync(projectDir, { recursive: true });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.double.reset();
  h.double.configure({ reply: compactObservationReply });
});

const env = (extra: Record<string, string> = {}) => ({ ...h.env, CLAUDE_CONFIG_DIR: claudeDir, ...extra });

function copySession(name: string): string {
  const dir = join(h.root, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${SESSION}.jsonl`);
  copyFileSync(FIXTURE, file);
  return file;
}

describe('recall endless fork', () => {
  it('writes a compressed copy under a new id, prints the resume command and the savings, and leaves the original alone', async () => {
    const file = copySession('fork');
    const before = readFileSync(file);
    const result = await runCli(['endless', 'fork', file], { env: env() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const newId = /claude --resume ([0-9a-f-]{36})/.exec(result.stdout)?.[1];
    expect(newId).toBeDefined();
    expect(result.stdout).toContain(`forked ${SESSION} into ${newId}: 3 of 7 tool results compressed (3 observations, 0 reductions)`);
    expect(result.stdout).toMatch(/on resume {5}[\d,]+ chars \(~[\d,]+ tokens\) -> [\d,]+ chars \(~[\d,]+ tokens\) {2}-\d+% \(what `claude --resume` loads: \d+ lines\)/);
    expect(result.stdout).toMatch(/whole file {4}[\d,]+ chars \(~[\d,]+ tokens\) -> [\d,]+ chars \(~[\d,]+ tokens\) {2}-\d+%/);
    expect(result.stdout).toContain('resume it with: cd "/work/demo" && claude --resume');
    expect(readFileSync(file).equals(before)).toBe(true);
    const lines = readFileSync(join(h.root, 'fork', `${newId}.jsonl`), 'utf8').trimEnd().split('\n');
    expect(lines.every((line) => (JSON.parse(line) as { sessionId?: string }).sessionId !== SESSION)).toBe(true);
    expect(h.double.requestsTo('/api/chat')).toHaveLength(3);
  });

  it('falls back to reductions and stops asking after one failed call when Ollama is down (its light path and the lazily loaded model client agree on the error code)', async () => {
    h.double.configure({ failStatus: 503 });
    const result = await runCli(['endless', 'fork', copySession('fork-down')], { env: env({ RECALL_HOME: join(h.root, 'fork-down-home') }) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/: 3 of 7 tool results compressed \(0 observations, 3 reductions\)/);
    expect(result.stdout).toMatch(/note: the model was not used after: LLM_UNAVAILABLE: Ollama at http:\/\/127\.0\.0\.1:\d+ failed \(HTTP 503\)/);
    expect(h.double.requestsTo('/api/chat')).toHaveLength(1);
  });

  it('finds a session by id under the Claude Code projects folder and reports JSON', async () => {
    copyFileSync(FIXTURE, join(projectDir, `${SESSION}.jsonl`));
    const result = await runCli(['endless', 'fork', SESSION, '--keep-recent', '0', '--no-model', '--json'], { env: env({ RECALL_HOME: join(h.root, 'by-id-home') }) });
    expect(result.exitCode).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ sessionId: SESSION, compressed: 5, reductions: 5, resumeCommand: `claude --resume ${summary.newSessionId}` });
    expect(existsSync(join(projectDir, `${summary.newSessionId}.jsonl`))).toBe(true);
    expect(h.double.requests).toHaveLength(0);
  });

  it('gives one clear line and exit 1 for a session id with no file', async () => {
    const result = await runCli(['endless', 'fork', 'no-such-session'], { env: env() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`recall: no transcript for session no-such-session under ${join(claudeDir, 'projects')}\n`);
  });

  it('gives one clear line and exit 1 for a malformed transcript, writing nothing', async () => {
    const file = copySession('malformed');
    appendFileSync(file, 'this is not json\n{"type":"user"}\n');
    const result = await runCli(['endless', 'fork', file], { env: env() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/is not a JSON object; nothing was written/);
    expect(readdirSync(join(h.root, 'malformed'))).toEqual([`${SESSION}.jsonl`]);
  });

  it('ignores a last line that is still being written', async () => {
    const file = copySession('partial');
    appendFileSync(file, '{"type":"assistant","message":{"content":[{"type":"te');
    const result = await runCli(['endless', 'fork', file, '--no-model'], { env: env() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('note: the last line was still being written and was left out');
  });

  it('compresses in place with a backup when asked', async () => {
    const file = copySession('in-place');
    const before = readFileSync(file);
    const result = await runCli(['endless', 'fork', file, '--in-place'], { env: env() });
    expect(result.exitCode).toBe(0);
    const backup = /backup {8}(\S+)/.exec(result.stdout)?.[1];
    expect(readFileSync(backup!).equals(before)).toBe(true);
    expect(readFileSync(file, 'utf8').length).toBeLessThan(before.length);
    expect(readFileSync(file, 'utf8')).toContain('[recall: Read output of');
  });

  it('gives the same result without the command-line program (and without the ESM loader) as through it', async () => {
    const file = copySession('parity');
    // `--` is not on the fast path's list, so the second run goes through commander.
    // NODE_DEBUG=esm logs every module the ESM loader handles: the light path, built as CommonJS, starts none.
    const fast = await runCli(['endless', 'fork', '--no-model', '--json', file], { env: env({ NODE_DEBUG: 'esm' }) });
    const full = await runCli(['endless', 'fork', '--no-model', '--json', '--', file], { env: env() });
    expect([fast.exitCode, fast.stderr, full.exitCode, full.stderr]).toEqual([0, '', 0, '']);
    const [a, b] = [fast, full].map((r) => JSON.parse(r.stdout) as Record<string, unknown>);
    const strip = (s: Record<string, unknown>) => ({ ...s, newSessionId: null, outputPath: null, resumeCommand: null });
    expect(strip(a!)).toEqual(strip(b!));
    const written = (s: Record<string, unknown>) => readFileSync(s.outputPath as string, 'utf8').split(s.newSessionId as string).join('NEW');
    expect(written(a!)).toBe(written(b!));
  });

  it('leaves --help and a configuration the schema refuses to the full program, with its own words', async () => {
    const help = await runCli(['endless', 'fork', '--help'], { env: env() });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: recall endless fork \[options\] <transcript>\n/);
    const bad = env({ RECALL_ENDLESS_MIN_CHARS: 'lots' });
    const fork = await runCli(['endless', 'fork', FIXTURE], { env: bad });
    const stats = await runCli(['endless', 'stats'], { env: bad });
    expect(fork.exitCode).toBe(1);
    expect(fork.stderr).toMatch(/^recall: invalid configuration: endless\.minChars: [^\n]+\n$/);
    expect(fork.stderr).toBe(stats.stderr);
  });

  it('refuses a bad --keep-recent with one line', async () => {
    const result = await runCli(['endless', 'fork', FIXTURE, '--keep-recent', '-2'], { env: env() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('recall: --keep-recent must be a whole number >= 0, got "-2"\n');
  });
});

describe('recall endless backfill and stats', () => {
  it('creates the missing observations, resumes on a second run, and reports savings', async () => {
    const home = join(h.root, 'stats-home');
    const file = copySession('backfill');
    const first = await runCli(['endless', 'backfill', file], { env: env({ RECALL_HOME: home }) });
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe(`backfill ${SESSION}: 5 eligible tool results, 5 observations created, 0 already there, 0 failed, 0 skipped\n`);
    const second = await runCli(['endless', 'backfill', file, '--json'], { env: env({ RECALL_HOME: home }) });
    expect(JSON.parse(second.stdout)).toMatchObject({ eligible: 5, created: 0, had: 5 });
    await runCli(['endless', 'fork', file], { env: env({ RECALL_HOME: home }) });
    const stats = await runCli(['endless', 'stats', '--json'], { env: env({ RECALL_HOME: home }) });
    expect(stats.exitCode).toBe(0);
    type Row = Record<string, number | string | null>;
    const parsed = JSON.parse(stats.stdout) as { enabled: boolean; sources: Row[]; total: Row; sessions: Row[] };
    expect(parsed.enabled).toBe(false);
    expect(parsed.sessions[0]).toMatchObject({ sessionId: SESSION, outputs: 5, pending: 0 });
    const bySource = Object.fromEntries(parsed.sources.map((row) => [row.source, row]));
    expect(bySource.hook).toMatchObject({ outputs: 0, savedChars: 0 });
    expect(bySource.backfill).toMatchObject({ runs: 1, outputs: 5 });
    expect(bySource.fork).toMatchObject({ runs: 1, outputs: 3 });
    expect(bySource.fork!.savedChars).toBeGreaterThan(0);
    expect(bySource.fork!.resumeSavedChars).toBeGreaterThan(0);
    expect(parsed.total).toMatchObject({ outputs: 3, savedChars: bySource.fork!.savedChars });
    const table = await runCli(['endless', 'stats'], { env: env({ RECALL_HOME: home }) });
    expect(table.stdout).toContain(SESSION);
    // Piped: one tab-separated line per row, nothing padded or wrapped.
    expect(table.stdout).toMatch(/^backfill \(ready\)\t1\t5\t/m);
    expect(table.stdout).toMatch(/^fork\t1\t3\t/m);
    expect(table.stdout).toMatch(/^session\toutputs\tobserved\treduced\tpending\toriginal chars\tshown chars\tsaved$/m);
    expect(table.stdout.split('\n').filter((line) => / $/.test(line))).toEqual([]);
  });

  it('stops with exit 1 and the reason when Ollama is down', async () => {
    h.double.configure({ failStatus: 503 });
    const result = await runCli(['endless', 'backfill', copySession('backfill-down')], { env: env({ RECALL_HOME: join(h.root, 'down-home') }) });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^recall: stopped early: LLM_UNAVAILABLE: Ollama at http:\/\/127\.0\.0\.1:\d+ failed \(HTTP 503\): internal server error\n$/);
  });

  it('says so when a session has no records', async () => {
    const result = await runCli(['endless', 'stats', '--session', 'nobody'], { env: env() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('recall: no Endless Mode records for session nobody\n');
  });
});
