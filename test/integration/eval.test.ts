import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReply } from '../../scripts/ollama-double.mjs';
import { runCli } from '../support/cli.js';
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

  it('names the pull command for a model Ollama does not have', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-missing') };
    const result = await runCli(['eval', '--model', 'nope:1b', h.session('eval-4', ['You MUST use pnpm.'])], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('ollama pull nope:1b');
  });

  it('asks for a model', async () => {
    const result = await runCli(['eval', h.session('eval-5', ['You MUST use pnpm.'])], { env: h.env });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('--model');
  });
});
