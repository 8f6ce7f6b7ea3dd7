/**
 * Runs an MCP server over stdin/stdout until the client goes away: stdin ends or closes, stdout breaks,
 * or a SIGTERM/SIGINT/SIGHUP arrives. Tool calls still running then are allowed to finish (a write is
 * one insert under the store lock, so it lands whole or not at all) before the server closes.
 */
import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from '../core/log.js';
import { BoundedStdioTransport } from './bounded-stdio-transport.js';
import type { InFlight } from './in-flight.js';

export interface ServeStdioOptions {
  stdin: Readable;
  /** Where protocol messages go; nothing else may be written there. */
  stdout: Writable;
  logger: Logger;
  inFlight: InFlight;
  /** How long running calls may take to finish once the client is gone. */
  drainMs: number;
  /** Requests answered before this server started: their answers are not sent. */
  hiddenAnswerIds?: ReadonlySet<string> | undefined;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Resolves with why the server stopped, after running calls settled (or `drainMs` passed) and the server closed. */
export async function serveStdio(server: McpServer, options: ServeStdioOptions): Promise<string> {
  const { stdin, stdout, logger, inFlight } = options;
  let onStop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    onStop = resolve;
  });
  const listeners: Array<() => void> = [];
  const listen = (emitter: NodeJS.EventEmitter, event: string, why: (arg?: unknown) => string) => {
    const handler = (arg?: unknown) => onStop(why(arg));
    emitter.once(event, handler);
    listeners.push(() => emitter.off(event, handler));
  };
  listen(stdin, 'end', () => 'stdin ended');
  listen(stdin, 'close', () => 'stdin closed');
  listen(stdout, 'error', (err) => `stdout failed: ${(err as Error | undefined)?.message ?? 'unknown error'}`);
  // Once the client stops reading, every later answer fails the same way: the first failure stops the
  // server (above); the rest must not reach Node as an unhandled 'error' and crash the calls still running.
  stdout.on('error', () => undefined);
  for (const signal of STOP_SIGNALS) listen(process, signal, () => signal);

  const transport = new BoundedStdioTransport(stdin, stdout, undefined, options.hiddenAnswerIds);
  transport.onerror = (err) => logger.log('warn', 'mcp transport error', { error: err.message });
  server.server.onerror = (err) => logger.log('warn', 'mcp protocol error', { error: err.message });
  await server.connect(transport);

  const why = await stopped;
  // Messages that came before the end reach their handlers first (the SDK dispatches a request a few
  // promise turns after reading it): a call the client sent just before closing stdin counts as running.
  await new Promise((resolve) => setImmediate(resolve));
  for (const remove of listeners) remove();
  const running = inFlight.size;
  const drained = await inFlight.settled(options.drainMs);
  // Let the answers of calls that just finished go out, in case the client still reads.
  await new Promise((resolve) => setImmediate(resolve));
  logger.log(drained ? 'info' : 'warn', 'mcp client gone', { why, running, drained });
  await server.close().catch(() => undefined);
  return why;
}
