/**
 * GitHub Copilot CLI writes a session's last events (the reply, `session.shutdown`) after its SessionEnd hook ran.
 * The real hook and the real worker (`recall drain`) on a Copilot events.jsonl that grows after the hook: the
 * capture holds what came after the hook, and a resumed session's capture holds only its own part.
 */
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runEntry } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

const SESSION = '3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f';
const line = (type: string, data: Record<string, unknown> = {}): string => `${JSON.stringify({ type, data, id: `${type}-${Math.random()}`, timestamp: '2026-11-27T18:00:00.000Z' })}\n`;

function copilotWorld() {
  const copilotHome = join(h.root, 'copilot-home');
  const file = join(copilotHome, 'session-state', SESSION, 'events.jsonl');
  mkdirSync(join(copilotHome, 'session-state', SESSION), { recursive: true });
  const project = h.project('copilot-shop');
  const env = { ...h.env, COPILOT_HOME: copilotHome, COPILOT_CLI: '1', RECALL_HOOK_SPAWN: '0' };
  return { file, project, env };
}

async function sessionEnd(env: NodeJS.ProcessEnv, project: string): Promise<void> {
  const payload = { sessionId: SESSION, timestamp: Date.now(), cwd: project, reason: 'complete' };
  const result = await runEntry(CLI, ['hook', 'session-end', '--agent', 'copilot'], { env, input: JSON.stringify(payload) });
  expect(result.exitCode, result.stderr).toBe(0);
}

/** The extraction requests the Ollama double received, as text. */
function extractions(): string[] {
  return h.double.requests.filter((r) => r.path === '/api/chat' || r.path === '/api/generate').map((r) => JSON.stringify(r.body));
}

describe('capture of a Copilot CLI session written after its SessionEnd hook', () => {
  it('captures the reply Copilot wrote after the hook ran, and a resumed session only for its new part', async () => {
    const { file, project, env } = copilotWorld();
    writeFileSync(file, line('session.start', { sessionId: SESSION }) + line('user.message', { content: 'Please set up the shop service with a build script and a test script, as we discussed.' }));
    await sessionEnd(env, project);
    // Copilot flushes the rest of the session only now.
    appendFileSync(file, line('assistant.message', { messageId: 'm1', content: 'Done. You must always run the linter before committing in this repository.' }) + line('session.shutdown', { shutdownType: 'routine' }));

    const drained = await runCli(['drain', '--json'], { env, cwd: project });
    expect(drained.exitCode, drained.stderr).toBe(0);
    const listed = await runCli(['list', '--json'], { env, cwd: project });
    expect(listed.stdout).toContain('run the linter before committing');
    const ledger = JSON.parse(readFileSync(join(h.home, 'sessions', `captured-${SESSION}.json`), 'utf8')) as { bytes: number };
    expect(ledger.bytes).toBe(statSync(file).size);

    // The same session resumed: its SessionEnd comes before its last events again.
    const before = extractions().length;
    appendFileSync(file, line('session.resume', {}) + line('user.message', { content: 'One more thing for the shop service: you must never force push to the release branch.' }));
    await sessionEnd(env, project);
    appendFileSync(file, line('assistant.message', { messageId: 'm2', content: 'Understood, no force pushes to the release branch.' }) + line('session.shutdown', { shutdownType: 'routine' }));
    const again = await runCli(['drain', '--json'], { env, cwd: project });
    expect(again.exitCode, again.stderr).toBe(0);
    const second = extractions().slice(before);
    expect(second.length).toBeGreaterThan(0);
    expect(second.join('\n')).toContain('force push');
    expect(second.join('\n')).not.toContain('run the linter');
    expect((JSON.parse(readFileSync(join(h.home, 'sessions', `captured-${SESSION}.json`), 'utf8')) as { bytes: number }).bytes).toBe(statSync(file).size);

    // A SessionEnd with nothing new (a second hook for the same end): queued, then done without a model call.
    const settled = extractions().length;
    await sessionEnd(env, project);
    const last = await runCli(['drain', '--json'], { env, cwd: project });
    expect(JSON.parse(last.stdout)).toMatchObject({ done: 1, retried: 0, failed: 0 });
    expect(extractions()).toHaveLength(settled);
  });
});
