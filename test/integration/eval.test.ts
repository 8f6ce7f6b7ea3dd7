import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReply } from '../../scripts/ollama-double.mjs';
import { runCli, runOnTerminal } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.double.configure({
    models: ['llama3.2:3b', 'qwen2.5:7b', 'mistral:7b', 'nomic-embed-text:latest'],
    // mistral is installed but its every answer is a server error.
    failModels: { 'mistral:7b': 500 },
    // qwen answers prose to the schema-constrained request, and JSON when asked again without it.
    reply: (body) => (body['model'] === 'qwen2.5:7b' && body['format'] !== undefined ? 'Here are the memories you asked for.' : defaultReply(body)),
  });
});
afterAll(async () => {
  await h.close();
});

interface Summary {
  error: { code: string; message: string } | null;
  erroredSessions: number;
  tokensPerSecond: number | null;
  peakMemoryBytes: number | null;
  overlap: Record<string, number>;
  sharedWithAny: number;
  replaced: Array<{ id: string; content: string; by: string }>;
  model: string;
  sessions: number;
  memories: number;
  schemaRetries: number;
  failedSessions: number;
  byType: Record<string, number>;
  effect: { duplicates: number; supersedes: number; fresh: number } | null;
  secondsPerSession: number;
}

describe('recall eval', () => {
  it('runs each model over each session and compares them, storing nothing', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval') };
    const project = h.project('eval-shop');
    const first = h.session('eval-1', ['You MUST use pnpm, never npm.', 'Always keep money in integer cents.']);
    const second = h.session('eval-2', ['You MUST write a migration for every schema change.']);
    // One of the rules is already known, so the comparison finds a duplicate.
    expect((await runCli(['add', '--project', project, 'You MUST use pnpm, never npm.'], { env })).exitCode).toBe(0);

    const result = await runCli(['eval', '--model', 'llama3.2:3b', '--model', 'qwen2.5:7b', '--cwd', project, first, second, '--json'], { env });
    expect(result.exitCode).toBe(0);
    const { models } = JSON.parse(result.stdout) as { models: Summary[] };
    expect(models.map((m) => m.model)).toEqual(['llama3.2:3b', 'qwen2.5:7b']);
    for (const summary of models) {
      expect(summary).toMatchObject({ sessions: 2, memories: 3, failedSessions: 0 });
      expect(summary.byType['golden_rule']).toBe(2);
      expect(summary.effect).toEqual({ duplicates: 1, supersedes: 0, fresh: 2 });
    }
    expect(models[0]?.schemaRetries).toBe(0);
    expect(models[1]?.schemaRetries).toBe(2);

    const list = JSON.parse((await runCli(['list', '--json'], { env })).stdout) as unknown[];
    expect(list).toHaveLength(1);
  });

  it('prints the figures side by side, one column per model, with progress on stderr', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-table') };
    const session = h.session('eval-3', ['You MUST use pnpm, never npm.']);
    const result = await runCli(['eval', '--model', 'llama3.2:3b', '--model', 'qwen2.5:7b', session], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/llama3\.2:3b\s+qwen2\.5:7b/);
    expect(result.stdout).toMatch(/memories per session\s+1\s+1/);
    expect(result.stdout).toMatch(/schema failures \(asked again\)\s+0\s+1/);
    expect(result.stderr).toContain('[1/1] llama3.2:3b');
    // Piped: a header and one tab-separated line per figure, nothing padded.
    expect(result.stdout).toContain('\tllama3.2:3b\tqwen2.5:7b\n');
    expect(result.stdout).toContain('\nmemories per session\t1\t1\n');
    expect(result.stdout.split('\n').filter((line) => / $/.test(line))).toEqual([]);
    // On a terminal: aligned, within COLUMNS.
    const shown = await runOnTerminal(['eval', '--model', 'llama3.2:3b', '--model', 'qwen2.5:7b', session], { ...env, COLUMNS: '60' });
    expect(shown.stdout).toMatch(/^memories per session {10,}1 {5,}1$/m);
    expect(Math.max(...shown.stdout.split('\n').filter((line) => !line.includes('/')).map((line) => line.length))).toBeLessThanOrEqual(60);
  });

  it('reports a model that errors and one that is missing, and still runs and compares the others', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-mixed') };
    const project = h.project('eval-mixed');
    const first = h.session('eval-6', ['You MUST run the tests with vitest before a commit.', 'Always keep money in integer cents.']);
    const second = h.session('eval-7', ['You MUST write a migration for every schema change.']);
    const models = ['llama3.2:3b', 'mistral:7b', 'nope:1b', 'qwen2.5:7b'];
    const result = await runCli(['eval', ...models.flatMap((m) => ['--model', m]), '--cwd', project, first, second, '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const summaries = (JSON.parse(result.stdout) as { models: Summary[] }).models;
    const byName = Object.fromEntries(summaries.map((s) => [s.model, s]));
    expect(byName['mistral:7b']).toMatchObject({ sessions: 0, erroredSessions: 2, error: { code: 'LLM_UNAVAILABLE' } });
    expect(byName['nope:1b']).toMatchObject({ sessions: 0, erroredSessions: 2, error: { code: 'LLM_MODEL_MISSING' } });
    expect(byName['nope:1b']?.error?.message).toContain('ollama pull nope:1b');
    for (const good of ['llama3.2:3b', 'qwen2.5:7b']) {
      expect(byName[good]).toMatchObject({ sessions: 2, memories: 3, error: null, erroredSessions: 0 });
      // Tokens per second from Ollama's eval_count / eval_duration; memory from /api/ps.
      expect(byName[good]?.tokensPerSecond).toBeGreaterThan(0);
      expect(byName[good]?.peakMemoryBytes).toBeGreaterThan(0);
    }
    // The two that ran wrote the same memories: each found all of the other's.
    expect(byName['llama3.2:3b']).toMatchObject({ overlap: { 'qwen2.5:7b': 3 }, sharedWithAny: 3 });
    expect(result.stderr).toContain('mistral:7b failed on');
  });

  it('shows which stored memories a model would replace, with their text, and the memories it would store', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-replace') };
    const project = h.project('eval-replace');
    expect((await runCli(['add', '--project', project, '--type', 'decision', 'Use PostgreSQL 15 for the orders database.'], { env })).exitCode).toBe(0);
    const session = h.session('eval-8', ['You should use PostgreSQL 16 for the orders database.', 'You MUST keep secrets out of the repository.']);
    const json = await runCli(['eval', '--model', 'llama3.2:3b', '--cwd', project, session, '--json'], { env });
    expect(json.exitCode, json.stderr).toBe(0);
    const [summary] = (JSON.parse(json.stdout) as { models: Summary[] }).models;
    expect(summary?.replaced).toEqual([expect.objectContaining({ content: 'Use PostgreSQL 15 for the orders database.', by: 'You should use PostgreSQL 16 for the orders database.' })]);
    const text = await runCli(['eval', '--model', 'llama3.2:3b', '--cwd', project, session], { env });
    expect(text.stdout).toContain('~ [preference] You should use PostgreSQL 16 for the orders database.');
    expect(text.stdout).toMatch(/replaces \S+: Use PostgreSQL 15 for the orders database\./);
    expect(text.stdout).toContain('+ [golden_rule] You MUST keep secrets out of the repository.');
    expect(text.stdout).toMatch(/tokens per second\s+\d/);
  });

  it('reports a model that times out and one that answers no JSON, and the others keep their figures', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-slow'), RECALL_OLLAMA_TIMEOUT_MS: '1500' };
    const project = h.project('eval-slow');
    h.double.configure({
      models: ['llama3.2:3b', 'slow:1b', 'garbled:1b', 'broken:1b', 'nomic-embed-text:latest'],
      failModels: { 'broken:1b': 500 },
      failMessage: 'CUDA error: out of memory',
      reply: async (body) => {
        if (body['model'] === 'slow:1b') await new Promise((done) => setTimeout(done, 4000));
        if (body['model'] === 'garbled:1b') return 'Sure! Here are the memories: {memories: [unquoted';
        return defaultReply(body);
      },
    });
    try {
      const first = h.session('eval-slow-1', ['You MUST run the tests with vitest before a commit.']);
      const second = h.session('eval-slow-2', ['Always keep money in integer cents.']);
      const models = ['slow:1b', 'llama3.2:3b', 'garbled:1b', 'nope:1b', 'broken:1b'];
      const result = await runCli(['eval', ...models.flatMap((m) => ['--model', m]), '--cwd', project, first, second, '--json'], { env });
      expect(result.exitCode, result.stderr).toBe(0);
      const byName = Object.fromEntries((JSON.parse(result.stdout) as { models: Summary[] }).models.map((s) => [s.model, s]));
      expect(byName['slow:1b']).toMatchObject({ sessions: 0, erroredSessions: 2, error: { code: 'LLM_TIMEOUT' } });
      expect(byName['slow:1b']?.error?.message).toMatch(/timed out|did not answer/);
      expect(byName['broken:1b']).toMatchObject({ sessions: 0, erroredSessions: 2, error: { code: 'LLM_UNAVAILABLE' } });
      expect(byName['broken:1b']?.error?.message).toContain('CUDA error: out of memory');
      expect(byName['nope:1b']).toMatchObject({ erroredSessions: 2, error: { code: 'LLM_MODEL_MISSING' } });
      // No usable answer is a figure of the comparison: two sessions asked, nothing to store from either.
      expect(byName['garbled:1b']).toMatchObject({ sessions: 2, memories: 0, failedSessions: 2, error: null });
      expect(byName['llama3.2:3b']).toMatchObject({ sessions: 2, memories: 2, failedSessions: 0, erroredSessions: 0, error: null });
      expect(byName['llama3.2:3b']?.tokensPerSecond).toBeGreaterThan(0);
      expect(byName['llama3.2:3b']?.peakMemoryBytes).toBeGreaterThan(0);
      expect(result.stderr).toContain('slow:1b failed on');
      expect(result.stderr).toContain('garbled:1b gave no usable answer on');

      // The same run for a person: each failure said under the table, the good model's memories listed.
      const text = await runCli(['eval', ...models.flatMap((m) => ['--model', m]), '--cwd', project, first, second], { env });
      expect(text.exitCode).toBe(0);
      expect(text.stdout).toMatch(/^broken:1b:\n {2}failed on 2 sessions: .*CUDA error: out of memory/m);
      expect(text.stdout).toMatch(/^garbled:1b:\n {2}no usable answer on 2 sessions/m);
      expect(text.stdout).toContain('+ [golden_rule] You MUST run the tests with vitest before a commit.');
    } finally {
      h.double.reset();
      h.double.configure({ models: ['llama3.2:3b', 'qwen2.5:7b', 'mistral:7b', 'nomic-embed-text:latest'], failModels: { 'mistral:7b': 500 } });
    }
  });

  it('fails with exit 1 when no model could run, naming each one', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-none') };
    const result = await runCli(['eval', '--model', 'mistral:7b', '--model', 'nope:1b', h.session('eval-none', ['You MUST use pnpm.'])], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^recall: no model could run: mistral:7b: .*; nope:1b: .*ollama pull nope:1b/m);
  });

  it('shows a sloppy model hiding a golden rule behind "You MUST run the tests.", with the golden rule\'s text', async () => {
    // No extraction model configured: each model is tried as a capture with it would run, as its own judge.
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-golden'), RECALL_OLLAMA_LLM_MODEL: undefined };
    const project = h.project('eval-golden');
    const golden = 'You MUST run the tests with vitest before every commit.';
    expect((await runCli(['add', '--project', project, '--type', 'golden_rule', golden], { env })).exitCode).toBe(0);
    // Asked whether the vaguer rule replaces the stored one, the sloppy model says it does; llama that it is another rule.
    const judging = (body: Record<string, unknown>) => JSON.stringify(body).includes('You compare two short engineering notes');
    h.double.configure({
      models: ['llama3.2:3b', 'sloppy:1b', 'nomic-embed-text:latest'],
      reply: (body) => (judging(body) ? JSON.stringify({ verdict: body['model'] === 'sloppy:1b' ? 'supersede' : 'different' }) : defaultReply(body)),
    });
    try {
      const session = h.session('eval-golden', ['Fix the failing build.', 'You MUST run the tests.']);
      const json = await runCli(['eval', '--model', 'sloppy:1b', '--model', 'llama3.2:3b', '--cwd', project, session, '--json'], { env });
      expect(json.exitCode, json.stderr).toBe(0);
      const byName = Object.fromEntries((JSON.parse(json.stdout) as { models: Summary[] }).models.map((s) => [s.model, s]));
      expect(byName['sloppy:1b']?.replaced).toEqual([expect.objectContaining({ content: golden, by: 'You MUST run the tests.' })]);
      expect(byName['sloppy:1b']?.effect).toEqual({ duplicates: 0, supersedes: 1, fresh: 0 });
      expect(byName['llama3.2:3b']?.replaced).toEqual([]);
      const text = await runCli(['eval', '--model', 'sloppy:1b', '--cwd', project, session], { env });
      expect(text.stdout).toContain('~ [golden_rule] You MUST run the tests.');
      expect(text.stdout).toMatch(new RegExp(`replaces \\S+: ${golden.replace(/[.]/g, '\\.')}`));
      // Nothing was stored: the golden rule is still the current one.
      const listed = JSON.parse((await runCli(['list', '--json'], { env })).stdout) as Array<{ content: string }>;
      expect(listed.map((m) => m.content)).toEqual([golden]);
    } finally {
      h.double.reset();
      h.double.configure({ models: ['llama3.2:3b', 'qwen2.5:7b', 'mistral:7b', 'nomic-embed-text:latest'], failModels: { 'mistral:7b': 500 } });
    }
  });

  it('lines the models\' memories up side by side, by meaning, per session', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-side') };
    const project = h.project('eval-side');
    h.double.configure({
      models: ['llama3.2:3b', 'terse:1b', 'nomic-embed-text:latest'],
      reply: (body) =>
        body['model'] === 'terse:1b' && JSON.stringify(body).includes('<transcript>')
          ? JSON.stringify({ memories: [{ content: 'Indent with tabs, never spaces.', type: 'preference' }, { content: 'You MUST use pnpm, never npm.', type: 'golden_rule' }] })
          : defaultReply(body),
    });
    try {
      const session = h.session('eval-side', ['You MUST use pnpm, never npm.', 'Always keep money in integer cents.']);
      const json = await runCli(['eval', '--model', 'llama3.2:3b', '--model', 'terse:1b', '--cwd', project, session, '--json'], { env });
      expect(json.exitCode, json.stderr).toBe(0);
      type Cell = { content: string; type: string; verdict: string } | null;
      const { sideBySide } = JSON.parse(json.stdout) as { sideBySide: Array<{ session: string; models: string[]; rows: Array<Record<string, Cell>> }> };
      expect(sideBySide).toHaveLength(1);
      expect(sideBySide[0]?.models).toEqual(['llama3.2:3b', 'terse:1b']);
      const rows = sideBySide[0]!.rows.map((row) => [row['llama3.2:3b']?.content ?? null, row['terse:1b']?.content ?? null]);
      expect(rows).toEqual([
        ['You MUST use pnpm, never npm.', 'You MUST use pnpm, never npm.'],
        ['Always keep money in integer cents.', null],
        [null, 'Indent with tabs, never spaces.'],
      ]);
      const text = await runCli(['eval', '--model', 'llama3.2:3b', '--model', 'terse:1b', '--cwd', project, session], { env });
      expect(text.stdout).toContain(
        [
          `side by side, ${session}:`,
          '  llama3.2:3b  + [golden_rule] You MUST use pnpm, never npm.',
          '  terse:1b     + [golden_rule] You MUST use pnpm, never npm.',
          '',
          '  llama3.2:3b  + [preference] Always keep money in integer cents.',
          '  terse:1b     (nothing)',
          '',
          '  llama3.2:3b  (nothing)',
          '  terse:1b     + [preference] Indent with tabs, never spaces.',
        ].join('\n'),
      );
    } finally {
      h.double.reset();
      h.double.configure({ models: ['llama3.2:3b', 'qwen2.5:7b', 'mistral:7b', 'nomic-embed-text:latest'], failModels: { 'mistral:7b': 500 } });
    }
  });

  it('names the pull command for a model Ollama does not have', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-missing') };
    const result = await runCli(['eval', '--model', 'nope:1b', h.session('eval-4', ['You MUST use pnpm.'])], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('ollama pull nope:1b');
  });

  it('refuses a --cwd that does not exist rather than comparing against the global memories', async () => {
    const asked = h.double.requestsTo('/api/chat').length;
    const result = await runCli(['eval', '--model', 'llama3.2:3b', '--cwd', join(h.root, 'no-such-project'), h.session('eval-cwd', ['You MUST use pnpm.'])], { env: h.env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`recall: --cwd ${join(h.root, 'no-such-project')} does not exist\n`);
    expect(h.double.requestsTo('/api/chat')).toHaveLength(asked);
  });

  it('asks for a model', async () => {
    const result = await runCli(['eval', h.session('eval-5', ['You MUST use pnpm.'])], { env: h.env });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('--model');
  });
});
