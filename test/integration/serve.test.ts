import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runEntry, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { isRunningOrStarting } from '../../src/core/start-marker.js';

let h: Harness;
let env: NodeJS.ProcessEnv;
let project: string;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  env = { ...h.env, RECALL_HOME: join(h.root, 'serve-home') };
  project = h.project('served');
  await runCli(['add', 'You MUST use pnpm, never npm.', '--type', 'golden_rule', '--project', project], { env });
  await runCli(['add', 'Store money as integer cents in a bigint column.', '--type', 'decision'], { env });
});
afterAll(async () => {
  await runCli(['serve', '--stop'], { env });
  await h.close();
});

const socket = () => join(env.RECALL_HOME!, 'serve.sock');
/** An environment whose config cannot load: only a running daemon can answer under it. */
const onlyDaemon = () => ({ ...env, RECALL_DEDUPE_THRESHOLD: '5' });

describe('recall serve', () => {
  it('answers search and list through a private socket with the same results as in-process work', async () => {
    const started = await runCli(['serve', '--detach'], { env });
    expect(started.exitCode).toBe(0);
    expect(statSync(socket()).mode & 0o777).toBe(0o600);

    const inProcess = await runCli(['search', 'pnpm', '--json'], { env: { ...env, RECALL_NO_SERVE: '1' } });
    const served = await runCli(['search', 'pnpm', '--json'], { env: onlyDaemon() });
    expect(served.exitCode).toBe(0);
    expect(JSON.parse(served.stdout)).toEqual(JSON.parse(inProcess.stdout));
    expect((await runCli(['search', 'pnpm', '--json'], { env: { ...onlyDaemon(), RECALL_NO_SERVE: '1' } })).stderr).toMatch(/dedupe\.threshold/);

    const list = await runCli(['list', '--json'], { env: onlyDaemon() });
    expect(JSON.parse(list.stdout)).toHaveLength(2);
  });

  it('shows in recall status, with its pid, and whether this process may use it', async () => {
    const pid = Number(readFileSync(`${socket()}.pid`, 'utf8'));
    const status = await runCli(['status', '--json'], { env });
    expect(JSON.parse(status.stdout).serve).toEqual({ running: true, pid, socket: socket(), used: true });
    expect((await runCli(['status'], { env })).stdout).toContain(`serve      running (pid ${pid}) on ${socket()}\n`);
    const notHere = await runCli(['status', '--json'], { env: { ...env, RECALL_NO_SERVE: '1' } });
    expect(JSON.parse(notHere.stdout).serve).toMatchObject({ running: true, used: false });
  });

  it('is reached by the recall bin without starting Node\'s ESM loader, and by the ESM entry with the same answer', async () => {
    const served = await runCli(['search', 'pnpm', '--json'], { env: { ...onlyDaemon(), NODE_DEBUG: 'esm' } });
    expect(served.exitCode).toBe(0);
    expect(served.stderr).toBe(''); // NODE_DEBUG=esm logs every module the ESM loader handles
    const viaEsm = await runEntry(CLI, ['search', 'pnpm', '--json'], { env: { ...onlyDaemon(), NODE_DEBUG: 'esm' } });
    expect(viaEsm.stderr).toMatch(/ESM \d+:/);
    expect(JSON.parse(viaEsm.stdout)).toEqual(JSON.parse(served.stdout));
  });

  it('resolves --here against the client directory, not its own', async () => {
    const result = await runCli(['search', 'money pnpm', '--here', '--json'], { env: onlyDaemon(), cwd: project });
    const hits = JSON.parse(result.stdout) as Array<{ content: string }>;
    expect(hits.map((m) => m.content)).toEqual(['You MUST use pnpm, never npm.']);
  });

  it('passes errors through with their exit code', async () => {
    const result = await runCli(['search', '   '], { env: onlyDaemon() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('recall: the search query is empty\n');
  });

  it('answers --help, --version and usage errors of a served command and keeps running', async () => {
    const pid = readFileSync(`${socket()}.pid`, 'utf8');
    const help = await runCli(['search', '--help'], { env: onlyDaemon() });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: recall search \[options\] <query\.\.\.>/);
    const usage = await runCli(['list', '--limit', 'x'], { env: onlyDaemon() });
    expect(usage.exitCode).toBe(1);
    expect(usage.stderr).toMatch(/--limit must be a positive whole number/);
    const unknown = await runCli(['search', 'pnpm', '--no-such-flag'], { env: onlyDaemon() });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/unknown option '--no-such-flag'/);
    // Still the same daemon: it answers a command that only it can run under this environment.
    expect(readFileSync(`${socket()}.pid`, 'utf8')).toBe(pid);
    expect((await runCli(['list', '--json'], { env: onlyDaemon() })).exitCode).toBe(0);
  });

  it('gives each request options of its own: one request\'s flags never carry over to the next', async () => {
    type Hit = { vector_score: number | null };
    const textOnly = JSON.parse((await runCli(['search', 'money pnpm', '--mode', 'text', '--limit', '1', '--full'], { env: onlyDaemon() })).stdout) as Hit[];
    expect(textOnly.map((hit) => hit.vector_score)).toEqual([null]);
    const served = JSON.parse((await runCli(['search', 'money pnpm', '--json'], { env: onlyDaemon() })).stdout) as Hit[];
    const inProcess = JSON.parse((await runCli(['search', 'money pnpm', '--json'], { env: { ...env, RECALL_NO_SERVE: '1' } })).stdout) as Hit[];
    expect(served).toEqual(inProcess);
    // Neither --limit 1 nor --mode text nor --full carried over: compact hits.
    expect(served.every((hit) => !('vector_score' in hit))).toBe(true);
    const servedFull = JSON.parse((await runCli(['search', 'money pnpm', '--full'], { env: onlyDaemon() })).stdout) as Hit[];
    const inProcessFull = JSON.parse((await runCli(['search', 'money pnpm', '--full'], { env: { ...env, RECALL_NO_SERVE: '1' } })).stdout) as Hit[];
    expect(servedFull).toEqual(inProcessFull);
    const servedFields = await runCli(['search', 'money pnpm', '--fields', 'id,score'], { env: onlyDaemon() });
    const inProcessFields = await runCli(['search', 'money pnpm', '--fields', 'id,score'], { env: { ...env, RECALL_NO_SERVE: '1' } });
    expect(servedFields.stdout).toBe(inProcessFields.stdout);
    // Both memories, each with its vector score.
    expect(servedFull).toHaveLength(2);
    expect(servedFull.every((hit) => hit.vector_score !== null)).toBe(true);
  });

  it('refuses to start a second daemon on the same state dir', async () => {
    const second = await runCli(['serve'], { env });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(/already running/);
  });

  it('writes an answer bigger than a pipe holds whole, byte for byte as in-process work does', async () => {
    const big = { ...env, RECALL_HOME: join(h.root, 'big-answer') };
    const file = join(h.root, 'many.jsonl');
    writeFileSync(file, manyMemories(400));
    expect((await runCli(['import', file], { env: big })).exitCode).toBe(0);
    const inProcess = await runCli(['list', '--limit', '1000', '--json'], { env: { ...big, RECALL_NO_SERVE: '1' } });
    expect(inProcess.stdout.length).toBeGreaterThan(128 * 1024); // a pipe holds 64 KiB
    expect((await runCli(['serve', '--detach'], { env: big })).exitCode).toBe(0);
    try {
      const served = await runCli(['list', '--limit', '1000', '--json'], { env: { ...big, RECALL_DEDUPE_THRESHOLD: '5' } });
      expect(served.exitCode).toBe(0);
      expect(served.stdout).toBe(inProcess.stdout);
    } finally {
      await runCli(['serve', '--stop'], { env: big });
    }
  });

  it('loads the full-text index whole at start, and again after an answer once other writes changed it', async () => {
    const warm = { ...env, RECALL_HOME: join(h.root, 'warm-index') };
    const loads = () => (readFileSync(join(warm.RECALL_HOME!, 'recall.log'), 'utf8').match(/serve: full-text index loaded/g) ?? []).length;
    await runCli(['add', 'Never force-push to main.'], { env: warm });
    expect((await runCli(['serve', '--detach'], { env: warm })).exitCode).toBe(0);
    try {
      expect(loads()).toBe(1);
      // Another process writes 600 rows; the upkeep its import starts folds them into the index. The
      // daemon reads nothing until asked.
      const file = join(h.root, 'warm-many.jsonl');
      writeFileSync(file, manyMemories(600));
      expect((await runCli(['import', file], { env: { ...warm, RECALL_NO_SERVE: '1' } })).exitCode).toBe(0);
      await waitFor(() => (isRunningOrStarting(warm.RECALL_HOME!, 'maintain') ? undefined : true), { timeoutMs: 120_000 });
      expect(loads()).toBe(1);
      const served = await runCli(['search', 'force-push', '--json'], { env: { ...warm, RECALL_DEDUPE_THRESHOLD: '5' } });
      expect(JSON.parse(served.stdout)[0].content).toBe('Never force-push to main.');
      await waitFor(() => (loads() === 2 ? true : undefined));
      // Nothing changed since: later answers load nothing.
      for (let i = 0; i < 2; i += 1) await runCli(['search', 'force-push', '--json'], { env: warm });
      expect(loads()).toBe(2);
    } finally {
      await runCli(['serve', '--stop'], { env: warm });
    }
  });

  it('searches vectors in a copy of the table made at start, finds another process\'s new memory at once, and copies again after the answer', async () => {
    const copy = { ...env, RECALL_HOME: join(h.root, 'vector-copy') };
    const copies = () => (readFileSync(join(copy.RECALL_HOME!, 'recall.log'), 'utf8').match(/serve: rows and vectors copied/g) ?? []).length;
    await runCli(['add', 'Never force-push to main.'], { env: copy });
    expect((await runCli(['serve', '--detach'], { env: copy })).exitCode).toBe(0);
    try {
      expect(copies()).toBe(1);
      const search = async (query: string) => JSON.parse((await runCli(['search', query, '--json', '--mode', 'vector'], { env: { ...copy, RECALL_DEDUPE_THRESHOLD: '5' } })).stdout) as Array<{ content: string; score: number }>;
      const inProcess = async (query: string) => JSON.parse((await runCli(['search', query, '--json', '--mode', 'vector'], { env: { ...copy, RECALL_NO_SERVE: '1' } })).stdout) as unknown;
      expect(await search('force-push to main')).toEqual(await inProcess('force-push to main'));
      expect((await runCli(['add', 'Rotate the staging API tokens every month.'], { env: { ...copy, RECALL_NO_SERVE: '1' } })).exitCode).toBe(0);
      expect((await search('rotate staging api tokens'))[0]?.content).toBe('Rotate the staging API tokens every month.');
      await waitFor(() => (copies() === 2 ? true : undefined));
      expect(await search('rotate staging api tokens')).toEqual(await inProcess('rotate staging api tokens'));
      expect(copies()).toBe(2);
    } finally {
      await runCli(['serve', '--stop'], { env: copy });
    }
  });

  it('stops on request, after which commands run in-process again', async () => {
    expect((await runCli(['serve', '--stop'], { env })).stdout).toMatch(/stopped/);
    await waitFor(() => (existsSync(socket()) ? undefined : true));
    const result = await runCli(['search', 'pnpm', '--json'], { env });
    expect(JSON.parse(result.stdout)[0].content).toBe('You MUST use pnpm, never npm.');
    expect(JSON.parse((await runCli(['status', '--json'], { env })).stdout).serve).toEqual({ running: false, pid: null, socket: socket(), used: false });
  });

  it('replaces the socket of a daemon that was killed, and falls back while there is none', async () => {
    await runCli(['serve', '--detach'], { env });
    const pid = Number(readFileSync(`${socket()}.pid`, 'utf8'));
    process.kill(pid, 'SIGKILL');
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    expect(existsSync(socket())).toBe(true); // left behind
    expect(JSON.parse((await runCli(['status', '--json'], { env })).stdout).serve.running).toBe(false);
    const fallback = await runCli(['search', 'pnpm', '--json'], { env });
    expect(JSON.parse(fallback.stdout)[0].content).toBe('You MUST use pnpm, never npm.');
    expect((await runCli(['serve', '--detach'], { env })).exitCode).toBe(0);
    expect((await runCli(['list', '--json'], { env: onlyDaemon() })).exitCode).toBe(0);
    await runCli(['serve', '--stop'], { env });
  });

  it('refuses a socket path that is not a socket', async () => {
    const other = { ...env, RECALL_HOME: join(h.root, 'not-a-socket') };
    await runCli(['list'], { env: other });
    writeFileSync(join(other.RECALL_HOME!, 'serve.sock'), 'x');
    const result = await runCli(['serve'], { env: other });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/is not a socket/);
  });

  it('says at once why --detach cannot start when the socket path is a file that is not a socket', async () => {
    const other = { ...env, RECALL_HOME: join(h.root, 'detach-not-a-socket') };
    await runCli(['list'], { env: other });
    writeFileSync(join(other.RECALL_HOME!, 'serve.sock'), 'x');
    // Killed at 45 s, well before the minute a wait for the daemon would last.
    const result = await runCli(['serve', '--detach'], { env: other, timeoutMs: 45_000 });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/serve\.sock exists and is not a socket/);
  }, 90_000);

  it('refuses --detach while another process listens on the socket, and leaves that socket alone', async () => {
    const other = { ...env, RECALL_HOME: join(h.root, 'detach-foreign') };
    await runCli(['list'], { env: other });
    const path = join(other.RECALL_HOME!, 'serve.sock');
    const held: Socket[] = [];
    const foreign = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => foreign.listen(path, resolve));
    try {
      const result = await runCli(['serve', '--detach'], { env: other, timeoutMs: 20_000 });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/another process is listening on .*serve\.sock and is not recall serve/);
      expect(existsSync(path)).toBe(true);
    } finally {
      for (const socket of held) socket.destroy();
      foreign.close();
    }
  }, 30_000);

  it('reports the exit and last words of a daemon that dies before it answers, without waiting out the minute', async () => {
    const other = { ...env, RECALL_HOME: join(h.root, 'detach-dies'), RECALL_EMBEDDER: 'ollama:nomic-embed-text', OLLAMA_HOST: 'http://127.0.0.1:9' };
    // Killed at 45 s, well before the minute a wait for the daemon would last.
    const result = await runCli(['serve', '--detach'], { env: other, timeoutMs: 45_000 });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^recall: recall serve exited \(1\) before it answered: recall: .+; see .*recall\.log\n$/);
  }, 90_000);
});

/** `count` export lines of distinct memories (varied enough that import's dedupe keeps most of them). */
function manyMemories(count: number): string {
  const base32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(' ');
  const lines = Array.from({ length: count }, (_, i) => {
    const id = `01M87WJ5BJ05SP7G3JVM2R${[3, 2, 1, 0].map((k) => base32[(i >> (5 * k)) & 31]).join('')}`;
    const content = `You MUST ${Array.from({ length: 12 }, (_, j) => `${words[(i * 7 + j * j * 13 + i * j) % 26]}${(i * 31 + j) % 97}`).join(' ')}.`;
    const at = '2026-11-24T12:00:00.000Z';
    return JSON.stringify({ id, content, type: 'decision', importance: 0.5, namespace: 'global', project_root: null, session_id: null, source: 'manual', embedder: 'hash:384', created_at: at, last_seen_at: at, seen_count: 1 });
  });
  return `${lines.join('\n')}\n`;
}
