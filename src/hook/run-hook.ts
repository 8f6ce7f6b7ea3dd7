/**
 * The hooks' one top-level handler: whatever happens, print one JSON object and exit 0.
 * Node built-ins only on this path. The SessionEnd handler comes with this file: it is small, needs
 * only built-ins the runner loads anyway (node:child_process only once it spawns), and the build
 * folds it in, so a SessionEnd hook loads one file of recall's instead of two. The other hooks'
 * modules are loaded on demand.
 */
import { mkdirSync, writeSync } from 'node:fs';
import { fileLogger } from '../core/log.js';
import { resolveHome, statePaths } from '../core/state-paths.js';
import type { HookContext } from './hook-context.js';
import { readStdin } from './read-stdin.js';
import { sessionEndHook } from './session-end.js';

type HookHandler = (ctx: HookContext) => Promise<Record<string, unknown>>;

const HANDLERS: Record<string, () => Promise<HookHandler>> = {
  'session-end': async () => sessionEndHook,
  'post-tool-use': async () => (await import('./post-tool-use.js')).postToolUseHook,
  'session-start': async () => (await import('./session-start.js')).sessionStartHook,
  stop: async () => (await import('./stop.js')).stopHook,
};

export async function runHook(name: string | undefined, args: readonly string[]): Promise<never> {
  let output: Record<string, unknown> = {};
  const home = resolveHome(process.env);
  try {
    const load = name ? HANDLERS[name] : undefined;
    if (!load) {
      fileLogger(statePaths(home).logFile, 'hook').log('warn', `unknown hook: ${String(name)}`);
    } else {
      try {
        mkdirSync(home, { recursive: true, mode: 0o700 });
      } catch {
        // A full or read-only disk: the handler still runs (SessionEnd then queues in its fallback spool).
      }
      const stdin = await readStdin({ maxBytes: 4 * 1024 * 1024 });
      output = await (await load())({ home, env: process.env, args, stdin });
    }
  } catch (err) {
    fileLogger(statePaths(home).logFile, `hook.${String(name)}`).log('error', `hook failed: ${(err as Error).stack ?? String(err)}`);
    output = {};
  }
  const rest = writeDirectly(1, `${JSON.stringify(output)}\n`);
  if (rest.length === 0) process.exit(0);
  // A stdout in non-blocking mode that is full: node's stream writes the rest once there is room.
  return new Promise<never>(() => {
    process.stdout.on('error', () => process.exit(0));
    process.stdout.write(rest, () => process.exit(0));
  });
}

/**
 * Writes `text` to the descriptor directly: process.stdout would load node's net and stream modules
 * (a few ms of every hook start). Returns what is left to write: nothing once it is written, or when no
 * one reads it any more (EPIPE and other errors: the hook still exits 0); the unwritten rest when the
 * descriptor is non-blocking and full (EAGAIN).
 */
function writeDirectly(fd: number, text: string): Buffer {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EAGAIN' ? rest : Buffer.alloc(0);
    }
  }
  return rest;
}
