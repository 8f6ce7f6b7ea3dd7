import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFilePath } from '../../src/context/context-file.js';
import { statePaths } from '../../src/core/state-paths.js';
import { resolveProject } from '../../src/project/resolve-project.js';
import { RECALL_CONTEXT_CLOSE_TAG, RECALL_CONTEXT_OPEN_TAG } from '../../src/transcript/recall-markers.js';
import { runCli, runHook, waitFor, type CliResult } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { importClosure } from '../support/import-graph.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

interface SessionStartOutput {
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
}

/** Exit 0, nothing on stderr, exactly one JSON object on stdout. */
function oneJsonObject(result: CliResult): SessionStartOutput {
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  const value = JSON.parse(result.stdout) as unknown;
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  return value as SessionStartOutput;
}

function env(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...h.env, RECALL_HOME: join(h.root, name), RECALL_HOOK_SPAWN: '0', ...extra };
}

/** The worker path, as in real use: SessionEnd queues the session, the worker captures it and refreshes the context. */
async function captureThroughWorker(e: NodeJS.ProcessEnv, session: string, rules: string[], project: string): Promise<void> {
  const queued = await runHook('session-end', { session_id: session, transcript_path: h.session(session, rules), cwd: project }, { env: e });
  expect(queued.exitCode).toBe(0);
  const drained = await runCli(['drain', '--json'], { env: e });
  expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1 });
}

function sessionStart(e: NodeJS.ProcessEnv, cwd: string | undefined, source = 'startup'): Promise<CliResult> {
  return runHook('session-start', { session_id: 'next', cwd, source, hook_event_name: 'SessionStart' }, { env: e });
}

describe('recall hook session-start', () => {
  it('brings global memories into a project that has no memories of its own yet', async () => {
    const e = env('start-global-only');
    const added = await runCli(['add', 'You must always sign commits with the team GPG key.'], { env: e, cwd: h.root });
    expect(added.exitCode, added.stderr).toBe(0);
    const fresh = h.project('start-fresh-project');
    const context = oneJsonObject(await sessionStart(e, fresh)).hookSpecificOutput?.additionalContext;
    expect(context).toContain('sign commits with the team GPG key');
  });

  it('keeps global memories out of a new project when context.includeGlobal is off', async () => {
    const e = env('start-global-off');
    expect((await runCli(['config', 'set', 'context.includeGlobal', 'false'], { env: e })).exitCode).toBe(0);
    expect((await runCli(['add', 'You must always sign commits with the team GPG key.'], { env: e, cwd: h.root })).exitCode).toBe(0);
    expect(oneJsonObject(await sessionStart(e, h.project('start-fresh-off')))).toEqual({});
  });

  it('brings the rules captured in a project into the next session, wrapped and within budget', async () => {
    const e = env('start-captured');
    const project = h.project('start-shop');
    await captureThroughWorker(e, 'start-shop', ['You MUST use pnpm, never npm.', 'Always store money as integer cents in a bigint column.'], project);

    const output = oneJsonObject(await sessionStart(e, project));
    expect(output.hookSpecificOutput?.hookEventName).toBe('SessionStart');
    const context = output.hookSpecificOutput!.additionalContext;
    expect(context.startsWith(`${RECALL_CONTEXT_OPEN_TAG}\n`)).toBe(true);
    expect(context.endsWith(`\n${RECALL_CONTEXT_CLOSE_TAG}`)).toBe(true);
    expect(context).toContain('- You MUST use pnpm, never npm.');
    expect(context).toContain('- Always store money as integer cents in a bigint column.');
    expect(context).toContain('recall search "<words>" --here');
    expect(context.length).toBeLessThanOrEqual(6000 + `${RECALL_CONTEXT_OPEN_TAG}\n\n${RECALL_CONTEXT_CLOSE_TAG}`.length);

    // A folder inside the project belongs to it; every source (resume, compact, ...) gets the context.
    const nested = join(project, 'src', 'deep');
    mkdirSync(nested, { recursive: true });
    const again = oneJsonObject(await sessionStart(e, nested, 'compact'));
    expect(again.hookSpecificOutput?.additionalContext).toBe(context);
  });

  it('keeps to a small configured budget', async () => {
    const e = env('start-budget', { RECALL_CONTEXT_MAX_CHARS: '480' });
    const project = h.project('start-budget');
    const rules = [
      'You MUST use pnpm, never npm, yarn or any other tool here.',
      'Always store money as integer cents in a bigint column.',
      'You MUST deploy the service with a blue green release.',
      'Never run docker compose migrations against the refund endpoint.',
    ];
    await captureThroughWorker(e, 'start-budget', rules, project);
    const context = oneJsonObject(await sessionStart(e, project)).hookSpecificOutput!.additionalContext;
    const inner = context.slice(`${RECALL_CONTEXT_OPEN_TAG}\n`.length, -`\n${RECALL_CONTEXT_CLOSE_TAG}`.length);
    expect(inner.length).toBeLessThanOrEqual(480);
    const [, shown, total, left] = /Showing (\d+) of (\d+) memories; (\d+) left out/.exec(inner)!.map(Number);
    expect(shown).toBeGreaterThan(0);
    expect(left).toBeGreaterThan(0);
    expect(shown! + left!).toBe(total);
    expect(inner.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(shown!);
  });

  it('answers {} for a project with no memories', async () => {
    const e = env('start-captured-other');
    await captureThroughWorker(e, 'start-other-a', ['You MUST use pnpm, never npm.'], h.project('start-other-a'));
    expect(oneJsonObject(await sessionStart(e, h.project('start-other-b')))).toEqual({});
  });

  it('answers {} when there is no state dir yet', async () => {
    const e = env('start-no-state');
    expect(existsSync(e.RECALL_HOME!)).toBe(false);
    expect(oneJsonObject(await sessionStart(e, h.project('start-no-state')))).toEqual({});
  });

  it('answers {} for a damaged context file and logs it', async () => {
    const e = env('start-damaged');
    const project = h.project('start-damaged');
    await captureThroughWorker(e, 'start-damaged', ['You MUST use pnpm, never npm.'], project);
    const file = contextFilePath(statePaths(e.RECALL_HOME!).contextDir, resolveProject(project).namespace);
    expect(existsSync(file)).toBe(true);
    writeFileSync(file, '{"version":1,"namespace":"proj');
    expect(oneJsonObject(await sessionStart(e, project))).toEqual({});
    expect(readFileSync(statePaths(e.RECALL_HOME!).logFile, 'utf8')).toMatch(/damaged context file/);
  });

  it.each([
    ['empty stdin', ''],
    ['text that is not JSON', 'hello'],
    ['JSON that is not an object', '[1,2,3]'],
    ['a cwd of the wrong type', JSON.stringify({ session_id: 'x', cwd: 42 })],
  ])('answers {} for %s', async (_label, input) => {
    const result = await runHook('session-start', input, { env: env('start-bad-stdin') });
    expect(oneJsonObject(result)).toEqual({});
  });

  it('answers {} for a cwd that does not exist', async () => {
    const e = env('start-no-cwd');
    expect(oneJsonObject(await sessionStart(e, join(h.root, 'nowhere', 'at-all')))).toEqual({});
    expect(readFileSync(statePaths(e.RECALL_HOME!).logFile, 'utf8')).toMatch(/cwd is not a directory/);
  });

  it('starts a worker for queued jobs that are due, so they are captured without waiting for the next SessionEnd', async () => {
    const e = env('start-kick');
    const project = h.project('start-kick');
    const queued = await runHook('session-end', { session_id: 'kick', transcript_path: h.session('kick', ['You MUST use pnpm, never npm.']), cwd: project }, { env: e });
    expect(queued.exitCode).toBe(0);
    const pending = statePaths(e.RECALL_HOME!).spoolPending;
    expect(readdirSync(pending)).toHaveLength(1);

    const { RECALL_HOOK_SPAWN: _off, ...spawning } = e;
    expect(oneJsonObject(await sessionStart(spawning, project))).toEqual({}); // nothing captured yet
    await waitFor(() => (readdirSync(pending).length === 0 ? true : undefined));
    const context = await waitFor(async () => oneJsonObject(await sessionStart(e, project)).hookSpecificOutput?.additionalContext);
    expect(context).toContain('You MUST use pnpm, never npm.');
  });

  it('starts no worker for jobs that only wait for a model no one configured, and one as soon as a model is set', async () => {
    const { RECALL_OLLAMA_LLM_MODEL: _model, RECALL_HOOK_SPAWN: _off, ...noModel } = env('start-waiting');
    const project = h.project('start-waiting');
    const queued = await runHook('session-end', { session_id: 'waits', transcript_path: h.session('waits', ['You MUST use pnpm, never npm.']), cwd: project }, { env: { ...noModel, RECALL_HOOK_SPAWN: '0' } });
    expect(queued.exitCode).toBe(0);
    // The worker finds no model, puts the job back and notes why.
    const worker = await runCli(['worker'], { env: noModel });
    expect(worker.exitCode).toBe(0);
    const paths = statePaths(noModel.RECALL_HOME!);
    const started = () => (existsSync(paths.logFile) ? readFileSync(paths.logFile, 'utf8').split('\n').filter((line) => line.includes('started a worker for due queued jobs')).length : 0);
    for (let i = 0; i < 3; i += 1) expect(oneJsonObject(await sessionStart(noModel, project))).toEqual({});
    expect(started()).toBe(0);
    expect(readdirSync(paths.spoolPending)).toHaveLength(1);

    const withModel = { ...noModel, RECALL_OLLAMA_LLM_MODEL: 'llama3.2:3b' };
    oneJsonObject(await sessionStart(withModel, project));
    expect(started()).toBe(1);
    await waitFor(() => (readdirSync(paths.spoolPending).length === 0 ? true : undefined));
  });
});

describe('a SessionEnd hook while queued jobs wait for a model', () => {
  it('starts no worker (each would find no model and leave, and the next hook start another), and starts one once a model is set', async () => {
    const { RECALL_OLLAMA_LLM_MODEL: _model, RECALL_HOOK_SPAWN: _off, ...noModel } = env('end-waiting');
    const project = h.project('end-waiting');
    const end = (name: string, e: NodeJS.ProcessEnv) => runHook('session-end', { session_id: name, transcript_path: h.session(name, ['You MUST use pnpm, never npm.']), cwd: project }, { env: e });
    expect((await end('first', { ...noModel, RECALL_HOOK_SPAWN: '0' })).exitCode).toBe(0);
    expect((await runCli(['worker'], { env: noModel })).exitCode).toBe(0);
    const paths = statePaths(noModel.RECALL_HOME!);
    const workers = () => new Set(readFileSync(paths.logFile, 'utf8').split('\n').filter((line) => line.includes('"component":"worker"')).map((line) => /"pid":(\d+)/.exec(line)?.[1])).size;
    for (let i = 0; i < 3; i += 1) expect(oneJsonObject(await end(`more-${i}`, noModel))).toEqual({});
    expect(readFileSync(paths.logFile, 'utf8').split('\n').filter((line) => line.includes('no worker started: queued jobs wait for an extraction model'))).toHaveLength(3);
    expect(workers()).toBe(1);
    expect(readdirSync(paths.spoolPending)).toHaveLength(4);

    expect(oneJsonObject(await end('with-model', { ...noModel, RECALL_OLLAMA_LLM_MODEL: 'llama3.2:3b' }))).toEqual({});
    await waitFor(() => (readdirSync(paths.spoolPending).length === 0 ? true : undefined));
    expect(workers()).toBe(2);
    // The worker (and any upkeep it started) gone before the home is removed.
    await waitFor(() => (['worker.starting', 'maintain.starting'].every((f) => !existsSync(join(paths.home, f))) ? true : undefined));
  });
});

describe('the SessionStart hook path', () => {
  // The source graph: the build folds these modules into dist/hook/session-start.js (scripts/bundle-hooks.mjs).
  it('imports node built-ins and its own small modules only', () => {
    const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
    const { files, packages } = importClosure(join(src, 'hook/session-start.ts'), { followDynamic: true });
    const seen = new Set(files);
    const foreign = packages.filter((name) => !name.startsWith('node:'));
    expect(seen.has(join(src, 'context/context-file.ts'))).toBe(true);
    expect(foreign).toEqual([]);
    expect([...seen].filter((f) => /\/src\/(adapters|worker|cli|store|embed|extract|config)\//.test(f))).toEqual([]);
    expect([...seen].filter((f) => /render-context|refresh-context/.test(f))).toEqual([]);
  });

  it('is built as one file with its small modules folded in, and loads the worker spawner only when it starts a worker', () => {
    const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
    expect(importClosure(join(dist, 'hook/session-start.js'), { followDynamic: false }).files).toEqual([join(dist, 'hook/session-start.js')]);
    expect(importClosure(join(dist, 'hook/session-start.js'), { followDynamic: true }).files).toContain(join(dist, 'hook/spawn-worker.js'));
  });
});
