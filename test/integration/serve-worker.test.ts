/**
 * The capture worker and the SessionStart context refresh with `recall serve`: they use a daemon with
 * the same configuration (its warm embedder, its warm table), get the same memories and context as
 * without it, and work alone when it is stopped, killed, dies mid-request or runs another configuration.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFilePath, parseContextFile } from '../../src/context/context-file.js';
import { resolveProject } from '../../src/project/resolve-project.js';
import { runCli, runHook, waitFor } from '../support/cli.js';
import { startFakeDaemon } from '../support/fake-daemon.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let modelDir: string;
const started: NodeJS.ProcessEnv[] = [];
beforeAll(async () => {
  h = await startHarness();
  modelDir = h.env.RECALL_EMBEDDER!.slice('transformers:'.length);
});
afterAll(async () => {
  for (const env of started) await runCli(['serve', '--stop'], { env });
  await h.close();
});

const RULES = ['You MUST use pnpm, never npm.', 'Always store money as integer cents in a bigint column.'];

function home(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...h.env, RECALL_HOME: join(h.root, name), RECALL_WORKER_LINGER_MS: '0', ...extra };
}

async function startServe(env: NodeJS.ProcessEnv): Promise<void> {
  const result = await runCli(['serve', '--detach'], { env });
  expect(result.exitCode).toBe(0);
  started.push(env);
}

/** As in real use: the SessionEnd hook queues the session and starts the detached worker; wait until it is done. */
async function captureWithWorker(env: NodeJS.ProcessEnv, session: string, project: string, rules = RULES): Promise<void> {
  const before = finishedWorkers(env);
  expect((await runHook('session-end', { session_id: session, transcript_path: h.session(session, rules), cwd: project }, { env })).exitCode).toBe(0);
  await waitFor(() => (finishedWorkers(env) > before ? true : undefined));
  expect(await queue(env)).toMatchObject({ pending: 0, processing: 0, failed: 0, retrying: 0 });
}

/** The same worker code, run by `recall drain` (the hook only queues). */
async function captureWithDrain(env: NodeJS.ProcessEnv, session: string, project: string, rules: string[]): Promise<void> {
  const queueOnly = { ...env, RECALL_HOOK_SPAWN: '0' };
  expect((await runHook('session-end', { session_id: session, transcript_path: h.session(session, rules), cwd: project }, { env: queueOnly })).exitCode).toBe(0);
  const drained = await runCli(['drain', '--json'], { env: queueOnly });
  expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1, retried: 0, failed: 0 });
}

async function queue(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  return (JSON.parse((await runCli(['status', '--json'], { env })).stdout) as { queue: Record<string, number> }).queue;
}

function logLines(env: NodeJS.ProcessEnv): Array<{ component: string; msg: string; namespaces?: string[]; texts?: number }> {
  const file = join(env.RECALL_HOME!, 'recall.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ReturnType<typeof logLines>[number]);
}

function finishedWorkers(env: NodeJS.ProcessEnv): number {
  return logLines(env).filter((l) => l.component === 'worker' && l.msg === 'worker finished').length;
}

function daemonSaid(env: NodeJS.ProcessEnv, msg: string): ReturnType<typeof logLines> {
  return logLines(env).filter((l) => l.component === 'serve' && l.msg === msg);
}

/** Stored memories without what differs by store (ids, times), with their vectors. */
async function storedMemories(env: NodeJS.ProcessEnv): Promise<unknown[]> {
  const result = await runCli(['export', '--with-vectors'], { env: { ...env, RECALL_NO_SERVE: '1' } });
  expect(result.exitCode).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map(({ content, type, importance, namespace, embedder, seen_count, vector }) => ({ content, type, importance, namespace, embedder, seen_count, vector }))
    .sort((a, b) => String(a.content).localeCompare(String(b.content)));
}

function contextOf(env: NodeJS.ProcessEnv, project: string): { namespace: string; text: string; included: number; omitted: number } {
  const namespace = resolveProject(project).namespace;
  const file = parseContextFile(readFileSync(contextFilePath(join(env.RECALL_HOME!, 'context'), namespace), 'utf8'), namespace)!;
  return { namespace: file.namespace, text: file.text, included: file.included, omitted: file.omitted };
}

/** Moves the model folder away, so only a process that loaded it before can embed. */
async function withModelHidden<T>(fn: () => Promise<T>): Promise<T> {
  renameSync(modelDir, `${modelDir}.hidden`);
  try {
    return await fn();
  } finally {
    renameSync(`${modelDir}.hidden`, modelDir);
  }
}

describe('the capture worker with recall serve', () => {
  it('embeds and renders the context through a running daemon, storing the same memories and context as without it', async () => {
    const project = h.project('served-shop');
    const served = home('served');
    await startServe(served);
    // The worker cannot load the model now: the capture can only succeed through the daemon's warm embedder.
    await withModelHidden(() => captureWithWorker(served, 'served-1', project));
    const namespace = resolveProject(project).namespace;
    expect(daemonSaid(served, 'serve: embedded for a client').map((l) => l.texts)).toEqual([RULES.length]);
    expect(daemonSaid(served, 'serve: rendered SessionStart context for a client').map((l) => l.namespaces)).toEqual([[namespace]]);

    const alone = home('alone');
    await captureWithWorker(alone, 'alone-1', project);
    expect(logLines(alone).filter((l) => l.component === 'serve')).toEqual([]);

    const memories = await storedMemories(served);
    expect(memories.map((m) => (m as { content: string }).content)).toEqual([...RULES].sort());
    expect(memories).toEqual(await storedMemories(alone));
    expect(contextOf(served, project).text).toContain('- You MUST use pnpm, never npm.');
    expect(contextOf(served, project)).toEqual(contextOf(alone, project));
  });

  it('works alone when the daemon was stopped, and when it was killed and left its socket behind', async () => {
    const project = h.project('fallback-shop');
    const env = home('fallback');
    await startServe(env);
    await captureWithDrain(env, 'fallback-1', project, ['You MUST use pnpm, never npm.']);
    expect(daemonSaid(env, 'serve: embedded for a client')).toHaveLength(1);

    expect((await runCli(['serve', '--stop'], { env })).exitCode).toBe(0);
    await waitFor(() => (existsSync(join(env.RECALL_HOME!, 'serve.sock')) ? undefined : true));
    await captureWithDrain(env, 'fallback-2', project, ['Always run the integration tests before a release.']);

    await startServe(env);
    const socket = join(env.RECALL_HOME!, 'serve.sock');
    process.kill(Number(readFileSync(`${socket}.pid`, 'utf8')), 'SIGKILL');
    await waitFor(() => (processGone(`${socket}.pid`) ? true : undefined));
    expect(existsSync(socket)).toBe(true);
    await captureWithDrain(env, 'fallback-3', project, ['Never deploy on a Friday.']);

    expect(daemonSaid(env, 'serve: embedded for a client')).toHaveLength(1);
    expect((await storedMemories(env)).map((m) => (m as { content: string }).content)).toEqual([
      'Always run the integration tests before a release.',
      'Never deploy on a Friday.',
      'You MUST use pnpm, never npm.',
    ]);
    const context = contextOf(env, project).text;
    for (const rule of ['You MUST use pnpm', 'Always run the integration tests', 'Never deploy on a Friday']) expect(context).toContain(rule);
  });

  it('loses no job when the daemon dies in the middle of a request', async () => {
    const project = h.project('dying-shop');
    const env = home('dying');
    await runCli(['status'], { env }); // creates the state dir
    const daemon = await startFakeDaemon(env.RECALL_HOME!, () => 'hang-up');
    await captureWithDrain(env, 'dying-1', project, RULES);
    await daemon.close();
    expect(daemon.requests.map((r) => r.op)).toEqual(['embed', 'context']);
    expect((await storedMemories(env)).map((m) => (m as { content: string }).content)).toEqual([...RULES].sort());
    expect(contextOf(env, project).text).toContain('- You MUST use pnpm, never npm.');
  });

  it('never uses a daemon started with another embedder', async () => {
    const project = h.project('other-shop');
    const env = home('other');
    await startServe({ ...env, RECALL_EMBEDDER: 'hash' });
    await captureWithDrain(env, 'other-1', project, RULES);
    expect(daemonSaid(env, 'serve: embedded for a client')).toEqual([]);
    expect(daemonSaid(env, 'serve: rendered SessionStart context for a client')).toEqual([]);
    expect(daemonSaid(env, 'serve: refused to embed for a client with another configuration')).toHaveLength(1);
    expect(daemonSaid(env, 'serve: refused to render context for a client with another configuration')).toHaveLength(1);
    expect(new Set((await storedMemories(env)).map((m) => (m as { embedder: string }).embedder))).toEqual(new Set([h.env.RECALL_EMBEDDER]));
  });
});

function processGone(pidFile: string): boolean {
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 0);
    return false;
  } catch {
    return true;
  }
}
