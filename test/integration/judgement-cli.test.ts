/** Proposed changes, restore and forgetting a chain's head through the built CLI and the SessionStart hook (issue 29). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

interface Row {
  id: string;
  content: string;
  superseded_by: string | null;
  status: string | null;
  wants_to_replace: string[] | null;
  reasons?: string[];
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

async function sessionContext(e: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const started = await runHook('session-start', { session_id: 's', cwd, source: 'startup', hook_event_name: 'SessionStart' }, { env: e });
  expect(started.exitCode).toBe(0);
  return (JSON.parse(started.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

describe('proposed changes through the CLI', () => {
  it('holds an import that would replace the user\'s rule, lists it as "wants to replace", and applies it when approved', async () => {
    const e = env('proposal');
    const user = JSON.parse(await recall(e, 'add', '--json', '--type', 'golden_rule', 'You MUST use pnpm for installs.')) as { id: string };
    const file = join(h.root, 'proposal.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: '01JPROPOSAL000000000000001', content: 'You MUST use npm for installs, not pnpm.', type: 'golden_rule', namespace: 'global' })}\n`);
    const imported = JSON.parse(await recall(e, 'import', '--json', file)) as { proposed: number; superseded: number };
    expect(imported).toMatchObject({ proposed: 1, superseded: 0 });

    const held = JSON.parse(await recall(e, 'review', '--json')) as Row[];
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ id: '01JPROPOSAL000000000000001', wants_to_replace: [user.id] });
    expect(held[0]?.reasons).toContain(`wants to replace ${user.id}`);
    expect(await recall(e, 'review')).toContain(`wants to replace ${user.id}`);
    // The human list says the same as its JSON; stats count the held memory apart.
    expect(await recall(e, 'list', '--include-held')).toContain(`[held for review; wants to replace ${user.id}] You MUST use npm for installs, not pnpm.`);
    expect(JSON.parse(await recall(e, 'stats', '--json'))).toMatchObject({ memories: 2, held: 1 });
    expect(await recall(e, 'stats')).toMatch(/^memories +2 in 1 namespace, 1 of them held for review/m);
    const before = await sessionContext(e, h.project('proposal'));
    expect(before).toContain('- You MUST use pnpm for installs.');
    expect(before).not.toContain('npm for installs, not pnpm');

    await recall(e, 'review', 'approve', '01JPROPOSAL000000000000001');
    const current = JSON.parse(await recall(e, 'list', '--json')) as Row[];
    expect(current.map((r) => r.id)).toEqual(['01JPROPOSAL000000000000001']);
    const after = await sessionContext(e, h.project('proposal'));
    expect(after).toMatch(/- now: You MUST use npm for installs, not pnpm\.; was: You MUST use pnpm for installs\. \(since \d{4}-\d{2}-\d{2}\)/);
  });
});

describe('recall restore and forgetting a chain\'s head', () => {
  it('restores an older version, and forgetting the head brings the previous version back', async () => {
    const e = env('restore');
    expect((await runCli(['restore', '--help'], { env: e })).stdout).toContain('make an older version of a memory current again');
    const first = JSON.parse(await recall(e, 'add', '--json', 'Use Node 18 for the build.')) as { id: string };
    const second = JSON.parse(await recall(e, 'add', '--json', 'Use Node 20 for the build.')) as { id: string; supersedes: string[] };
    expect(second.supersedes).toEqual([first.id]);

    expect(JSON.parse(await recall(e, 'restore', '--json', first.id))).toEqual({ restored: first.id, replaced: [second.id] });
    expect((JSON.parse(await recall(e, 'list', '--json')) as Row[]).map((r) => r.id)).toEqual([first.id]);
    const again = await runCli(['restore', first.id], { env: e });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('already current');

    expect(JSON.parse(await recall(e, 'forget', '--json', first.id))).toEqual({ forgotten: [first.id], current_again: [second.id] });
    const left = JSON.parse(await recall(e, 'list', '--json', '--all-versions')) as Row[];
    expect(left.map((r) => [r.id, r.superseded_by])).toEqual([[second.id, null]]);
  });

  it('forgets a whole chain with --chain', async () => {
    const e = env('forget-chain');
    await recall(e, 'add', 'Use Node 18 for the build.');
    const head = JSON.parse(await recall(e, 'add', '--json', 'Use Node 20 for the build.')) as { id: string };
    const forgotten = JSON.parse(await recall(e, 'forget', '--json', '--chain', head.id)) as { forgotten: string[] };
    expect(forgotten.forgotten).toHaveLength(2);
    expect(JSON.parse(await recall(e, 'list', '--json', '--all-versions'))).toEqual([]);
  });
});
