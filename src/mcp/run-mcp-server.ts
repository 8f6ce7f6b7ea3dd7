/**
 * `recall mcp`: the stdio server process. Starts without loading LanceDB, transformers or ollama (the
 * runtime loads each on the first call that needs it), serves until the client goes away, then lets
 * running calls finish and closes the store.
 */
import type { Readable } from 'node:stream';
import { openState, runtimeFor } from '../app/open-state.js';
import { resolveProject } from '../project/resolve-project.js';
import type { Runtime } from '../app/runtime.js';
import { createMcpServer } from './create-mcp-server.js';
import { guardStdout } from './guard-stdout.js';
import { createInFlight } from './in-flight.js';
import { serializeCalls } from '../core/serialize-calls.js';
import { serveStdio } from './serve-stdio.js';

/** Running calls get this long to finish after the client is gone (clients wait 2 s before SIGTERM). */
const DRAIN_MS = 10_000;

export interface RunMcpOptions {
  version: string;
  cwd: string;
  /** The environment the server runs in (its config overrides, RECALL_NO_SERVE). */
  env: NodeJS.ProcessEnv;
  /** Where the client's messages come from: process.stdin unless given. */
  stdin?: NodeJS.ReadableStream | undefined;
  /** Requests answered before this server started (serve-mcp-fast.ts): their answers are not sent. */
  hiddenAnswerIds?: ReadonlySet<string> | undefined;
}

export async function runMcpServer(options: RunMcpOptions): Promise<void> {
  const protocolOut = guardStdout();
  const { loaded, logger } = openState(options.env, 'mcp');
  const runtime = serializeWrites(runtimeFor(loaded, options.env, true));
  const project = resolveProject(options.cwd);
  const inFlight = createInFlight();
  const server = createMcpServer({ runtime, logger, cwd: options.cwd, project }, inFlight, options.version);
  logger.log('info', 'mcp server started', { cwd: options.cwd, namespace: project.namespace, version: options.version });
  try {
    const stdin = (options.stdin ?? process.stdin) as Readable;
    const why = await serveStdio(server, { stdin, stdout: protocolOut, logger, inFlight, drainMs: DRAIN_MS, hiddenAnswerIds: options.hiddenAnswerIds });
    logger.log('info', 'mcp server stopped', { why });
  } finally {
    await runtime.close();
  }
}

/** The server's own writes queue up in process before they take the inter-process store lock. */
function serializeWrites(runtime: Runtime): Runtime {
  const queue = serializeCalls();
  return { ...runtime, withStoreLock: (fn) => queue(() => runtime.withStoreLock(fn)) };
}
