/** Changed decisions through the built CLI and the SessionStart hook: the new version replaces the old one, which stays as history. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestBody } from '../../scripts/ollama-double.mjs';
import { statePaths } from '../../src/core/state-paths.js';
import { runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

interface Row {
  id: string;
  content: string;
  seen_count: number;
  superseded_by: string | null;
  superseded_at: string | null;
  provenance: string | null;
  status: string | null;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

function env(name: string): NodeJS.ProcessEnv {
  return { ...h.env, RECALL_HOME: join(h.root, name), RECALL_HOOK_SPAWN: '0' };
}

async function recall(e: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const result = await runCli(args, { env: e });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

async function listed(e: NodeJS.ProcessEnv, ...flags: string[]): Promise<Row[]> {
  return JSON.parse(await recall(e, 'list', '--json', ...flags)) as Row[];
}

/** The double answers the pair question with `verdict` and anything else with its default answer. */
function answerPairsWith(verdict: string) {
  return (body: RequestBody) => {
    const system = String(body.messages?.[0]?.content ?? '');
    return system.includes('OLD note') ? JSON.stringify({ verdict, reason: 'test' }) : JSON.stringify({ memories: [] });
  };
}

describe('changed decisions through the CLI', () => {
  it('shows only the new version in list and search, both with --all-versions, and the chain in show', async () => {
    const e = env('cli-versions');
    const first = JSON.parse(await recall(e, 'add', '--json', 'Use PostgreSQL 15 for the orders database.')) as { id: string };
    const second = JSON.parse(await recall(e, 'add', '--json', 'Use PostgreSQL 16 for the orders database.')) as { id: string; supersedes: string[] };
    expect(second.supersedes).toEqual([first.id]);

    expect((await listed(e)).map((r) => r.content)).toEqual(['Use PostgreSQL 16 for the orders database.']);
    const all = await listed(e, '--all-versions');
    expect(all.map((r) => r.content).sort()).toEqual(['Use PostgreSQL 15 for the orders database.', 'Use PostgreSQL 16 for the orders database.']);
    const old = all.find((r) => r.id === first.id)!;
    expect(old).toMatchObject({ superseded_by: second.id, provenance: 'manual', status: null });
    expect(old.superseded_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const found = JSON.parse(await recall(e, 'search', '--json', 'PostgreSQL orders database')) as Row[];
    expect(found.map((r) => r.id)).toEqual([second.id]);
    const foundAll = JSON.parse(await recall(e, 'search', '--json', '--all-versions', 'PostgreSQL orders database')) as Row[];
    expect(foundAll.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());

    const shown = await recall(e, 'show', second.id);
    expect(shown).toMatch(/versions \(oldest first\):\n {2}\S+ {2}\S+ {2}Use PostgreSQL 15[^\n]*\n\* \S+ {2}\S+ {2}Use PostgreSQL 16/);
    const shownOld = JSON.parse(await recall(e, 'show', '--json', first.id)) as Row & { newer_versions: Row[]; older_versions: Row[] };
    expect(shownOld.newer_versions.map((r) => r.id)).toEqual([second.id]);
    expect(shownOld.older_versions).toEqual([]);
    expect(await recall(e, 'show', first.id)).toContain(`status     replaced by ${second.id}`);
  });

  it('leaves only the new rule in the SessionStart context when a rule is reversed', async () => {
    const e = env('cli-context');
    const project = h.project('reversed-rule');
    await recall(e, 'add', '--type', 'golden_rule', '--project', project, 'You MUST use npm for installs.');
    await recall(e, 'add', '--type', 'golden_rule', '--project', project, 'You MUST NOT use npm for installs; use pnpm.');
    const started = await runHook('session-start', { session_id: 's', cwd: project, source: 'startup', hook_event_name: 'SessionStart' }, { env: e });
    expect(started.exitCode).toBe(0);
    const context = (JSON.parse(started.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain('You MUST NOT use npm for installs; use pnpm.');
    expect(context).not.toMatch(/^- You MUST use npm for installs\.$/m);
    // The change itself is named while it is recent.
    expect(context).toMatch(/^- now: You MUST NOT use npm for installs; use pnpm\.; was: You MUST use npm for installs\. \(since \d{4}-\d{2}-\d{2}\)$/m);
  });

  it('reinforces a paraphrase: seen twice, no new row', async () => {
    const e = env('cli-paraphrase');
    await recall(e, 'add', 'Never force-push to the main branch.');
    const again = JSON.parse(await recall(e, 'add', '--json', 'Do not force push to main.')) as { status: string };
    expect(again.status).toBe('matched');
    const rows = await listed(e, '--all-versions');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.seen_count).toBe(2);
  });

  it('asks the model about a pair the rules leave open, and falls back to the threshold when it is down', async () => {
    const e = env('cli-model');
    h.double.configure({ reply: answerPairsWith('supersede') });
    try {
      const first = JSON.parse(await recall(e, 'add', '--json', 'Store secrets in the vault, never in the repository.')) as { id: string };
      const second = JSON.parse(await recall(e, 'add', '--json', 'Secrets live in the vault and never in the repo.')) as { id: string; supersedes: string[] };
      expect(second.supersedes).toEqual([first.id]);
      expect(h.double.requestsTo('/api/chat').some((r) => JSON.stringify(r.body).includes('Secrets live in the vault'))).toBe(true);

      const down = env('cli-model-down');
      h.double.configure({ failStatus: 500 });
      await recall(down, 'add', 'Store secrets in the vault, never in the repository.');
      const third = JSON.parse(await recall(down, 'add', '--json', 'Secrets live in the vault and never in the repo.')) as { status: string; supersedes?: string[] };
      // The model fails: their similarity (0.80) is under the 0.85 duplicate threshold, so a separate memory.
      expect(third).toMatchObject({ status: 'stored', supersedes: [] });
      expect(readFileSync(statePaths(down.RECALL_HOME!).logFile, 'utf8')).toContain('the model could not judge a pair of memories');
    } finally {
      h.double.reset();
    }
  });
});
