import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReply } from '../../scripts/ollama-double.mjs';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.double.configure({
    models: ['llama3.2:3b', 'qwen2.5:7b', 'nomic-embed-text:latest'],
    // qwen answers prose to the schema-constrained request, and JSON when asked again without it.
    reply: (body) => (body['model'] === 'qwen2.5:7b' && body['format'] !== undefined ? 'Here are the memories you asked for.' : defaultReply(body)),
  });
});
afterAll(async () => {
  await h.close();
});

interface Summary {
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
