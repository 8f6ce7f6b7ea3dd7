/**
 * `recall serve`: keeps the memory table open and the embedder loaded behind a Unix socket in the
 * state dir (0600, never a TCP port). It runs `search`/`list` command lines for clients, and embeds
 * texts and renders SessionStart contexts for workers with the same configuration (see
 * serve-worker-ops.ts). One JSON request line in, one JSON response line out, per connection; a
 * `recall ui` client keeps its connection while the daemon hosts its page (serve-ui-op.ts).
 */
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { LoadedConfig } from '../config/load-config.js';
import { describeError } from '../core/errors.js';
import { serializeCalls } from '../core/serialize-calls.js';
import type { Logger } from '../core/log.js';
import type { MemoryStore } from '../core/ports.js';
import { createRuntime, type Runtime } from '../app/runtime.js';
import { SERVED_COMMANDS, serveSocketPath, type ServeRequest, type ServeResponse } from '../serve-client/serve-client.js';
import { serveIdentity } from '../serve-client/serve-identity.js';
import { inspectServeSocket, serveSocketProblem } from './serve-socket-state.js';
import { MAX_EMBED_REQUEST_CHARS } from '../serve-client/served-embedder.js';
import { createWorkerOps, type WorkerOps } from './serve-worker-ops.js';
import { createUiHosting, type UiHosting, type UiStarter } from './serve-ui-op.js';

/** Characters read per request at most: an embed request of a big batch, with room to spare. */
const MAX_REQUEST_CHARS = MAX_EMBED_REQUEST_CHARS + 64 * 1024;

/** The client's terminal, as a served command writes to it and reads its width and colours from it. */
export interface ClientTerminal {
  write(stream: 'stdout' | 'stderr', text: string): void;
  columns: number | undefined;
  isTTY: boolean;
  noColor: boolean;
  cwd: string;
}

/**
 * Runs a client's `search`/`list` command line on the daemon's runtime, printing to the client's
 * terminal, and returns its exit code; null when the client should run it itself. The command-line
 * program hands it in (src/cli/served-commands.ts), so the daemon runs the same command functions.
 */
export type ServedCommandRunner = (argv: readonly string[], runtime: Runtime, terminal: ClientTerminal) => Promise<number | null>;

export interface ServeHandle {
  socketPath: string;
  /** Resolves when the server has stopped (a stop request, a signal, or `close()`). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function startServe(loaded: LoadedConfig, logger: Logger, runServed: ServedCommandRunner, startUi: UiStarter | null = null): Promise<ServeHandle> {
  const socketPath = serveSocketPath(loaded.paths.home);
  await clearStaleSocket(socketPath);
  // Its own embedder, never one served by itself.
  // LanceDB in a child process the daemon replaces when its threads pile up (hosted-store.ts), unless set to 0.
  const threadCap = loaded.config.serve.storeHostThreads;
  const hostStore = threadCap > 0 ? { threadCap, logger, warm: warmNewHost } : undefined;
  const runtime = createRuntime(loaded, { useServe: false, longLived: true, ...(hostStore === undefined ? {} : { hostStore }) });
  // Warm up now, so the first client does not pay for it.
  await runtime.store();
  // The store's work one request at a time, the warm-up's too: each Lance read of a request is a thread
  // of the binding's blocking pool, which grows to the most reads ever in flight (lance-store.ts).
  const oneAtATime = serializeCalls();
  const textIndex = textIndexWarmer(runtime, logger, oneAtATime);
  await textIndex.warm();
  const embedder = await runtime.embedder();
  await embedder.embed(['warm up']);
  const ops = createWorkerOps(runtime, serveIdentity(loaded.config, loaded.paths.dbDir), logger);
  const ui = createUiHosting(runtime, serveIdentity(loaded.config, loaded.paths.dbDir), logger, startUi);

  let stop: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (stop = resolve));
  const commands = { runtime, runServed, logger, oneAtATime };
  const server: Server = createServer((socket) => void serveConnection(socket, ops, ui, commands, () => void close(), () => void textIndex.warm()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  writeFileSync(`${socketPath}.pid`, `${process.pid}\n`, { mode: 0o600 });
  logger.log('info', 'serve: listening', { socketPath });

  let closing: Promise<void> | null = null;
  async function close(): Promise<void> {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await ui.closeAll();
      await stopped;
      rmSync(socketPath, { force: true });
      rmSync(`${socketPath}.pid`, { force: true });
      await textIndex.idle();
      await runtime.close();
      logger.log('info', 'serve: stopped');
      stop();
    })();
    return closing;
  }
  return { socketPath, closed, close };
}

/**
 * Keeps the full-text index loaded whole (MemoryStore.warmTextIndex), and while the table has no
 * vector index its rows and vectors copied (MemoryStore.warmVectors), as other processes' writes
 * change them: checked at start, then after each answer (a table-version read when nothing changed),
 * never while a client waits. A failure only costs speed, so it is logged and the daemon goes on.
 */
function textIndexWarmer(runtime: Runtime, logger: Logger, oneAtATime: Serialized): { warm(): Promise<void>; idle(): Promise<void> } {
  let running: Promise<void> | null = null;
  const warm = async (): Promise<void> => {
    try {
      const started = performance.now();
      const store = await runtime.store();
      if (await store.warmTextIndex()) {
        logger.log('info', 'serve: full-text index loaded', { ms: Math.round(performance.now() - started) });
      }
      const copied = performance.now();
      if (await store.warmVectors()) {
        logger.log('info', 'serve: rows and vectors copied for exact search', { ms: Math.round(performance.now() - copied) });
      }
    } catch (err) {
      logger.log('warn', `serve: could not load the full-text index or copy the vectors: ${describeError(err)}`);
    }
  };
  return {
    warm: () => (running ??= oneAtATime(warm).finally(() => (running = null))),
    idle: async () => running ?? undefined,
  };
}

/** A new store host loads what the daemon's warmer keeps loaded before it answers anyone. */
async function warmNewHost(store: Pick<MemoryStore, 'warmTextIndex' | 'warmVectors'>): Promise<void> {
  await store.warmTextIndex();
  await store.warmVectors();
}

/** A socket file left by a dead daemon is replaced; a live daemon or listener, or a file that is not ours, is refused. */
async function clearStaleSocket(socketPath: string): Promise<void> {
  const state = await inspectServeSocket(socketPath, typeof process.getuid === 'function' ? process.getuid() : null);
  const problem = serveSocketProblem(state, socketPath);
  if (problem !== null) throw problem;
  if (state.kind === 'stale') rmSync(socketPath, { force: true });
}

interface ServedCommands {
  runtime: Runtime;
  runServed: ServedCommandRunner;
  logger: Logger;
  oneAtATime: Serialized;
}

type Serialized = ReturnType<typeof serializeCalls>;

async function serveConnection(socket: Socket, ops: WorkerOps, ui: UiHosting, commands: ServedCommands, onStop: () => void, afterAnswer: () => void): Promise<void> {
  const data = await readRequestLine(socket);
  const reply = (response: object): void => void socket.end(`${JSON.stringify(response)}\n`);
  let request: Partial<ServeRequest> & { stop?: boolean; op?: unknown };
  try {
    request = JSON.parse(data.slice(0, data.indexOf('\n') >>> 0)) as typeof request;
    if (typeof request !== 'object' || request === null) throw new Error('not an object');
  } catch {
    reply({ stdout: '', stderr: 'recall: bad request to recall serve\n', exitCode: 2 });
    return;
  }
  if (request.op === 'ping') {
    reply({ ok: true, pid: process.pid });
    return;
  }
  if (request.op === 'embed' || request.op === 'context') {
    const args = request as Record<string, unknown>;
    // An embed needs no store; a context reads it.
    reply(await (request.op === 'context' ? commands.oneAtATime(() => ops.context(args)) : ops.embed(args)));
    afterAnswer();
    return;
  }
  if (request.op === 'ui') {
    await ui.host(socket, request);
    return;
  }
  if (request.stop === true) {
    reply({ stdout: 'recall serve stopped\n', stderr: '', exitCode: 0 });
    onStop();
    return;
  }
  const argv = Array.isArray(request.argv) ? request.argv.filter((a): a is string => typeof a === 'string') : [];
  if (!SERVED_COMMANDS.has(argv[0] ?? '') || typeof request.cwd !== 'string') {
    reply({ stdout: '', stderr: `recall: recall serve does not run "${argv[0] ?? ''}"\n`, exitCode: 2 });
    return;
  }
  reply(await commands.oneAtATime(() => runCommand(argv, request as ServeRequest, commands)));
  afterAnswer();
}

/** The first line the client sends (breaking out of `for await` would destroy the socket before the reply). */
function readRequestLine(socket: Socket): Promise<string> {
  socket.setEncoding('utf8');
  return new Promise((resolve) => {
    let data = '';
    const finish = (): void => {
      socket.removeAllListeners('data');
      resolve(data);
    };
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (data.includes('\n') || data.length > MAX_REQUEST_CHARS) finish();
    });
    socket.once('end', finish);
    socket.once('error', finish);
  });
}

/** A served command's answer; `{ runHere: true }` (not a command answer) has the client run it itself. */
async function runCommand(argv: string[], request: ServeRequest, { runtime, runServed, logger }: ServedCommands): Promise<ServeResponse | { runHere: true }> {
  let stdout = '';
  let stderr = '';
  const terminal: ClientTerminal = {
    write: (stream, text) => (stream === 'stdout' ? (stdout += text) : (stderr += text)),
    columns: request.columns ?? undefined,
    isTTY: request.isTTY === true,
    noColor: request.noColor === true,
    cwd: request.cwd,
  };
  try {
    const exitCode = await runServed(argv, runtime, terminal);
    return exitCode === null ? { runHere: true } : { stdout, stderr, exitCode };
  } catch (err) {
    logger.log('error', `serve: command failed: ${describeError(err)}`, { argv });
    return { stdout, stderr: `${stderr}recall: ${describeError(err)}\n`, exitCode: 2 };
  }
}
