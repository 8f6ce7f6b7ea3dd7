/** Runs the built CLI and hooks as real subprocesses, with a private state dir per test. */
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

/** The ESM entry: spawned workers run it, and the hooks and MCP server of installs older than the bin's. */
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/**
 * The `recall` bin (package.json): the same program built as CommonJS, what a user's `recall ...` runs and
 * the entry `recall install` writes into agent settings (hooks and the MCP server).
 */
export const BIN = fileURLToPath(new URL('../../dist/cli/main.cjs', import.meta.url));

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

export interface CliResult {
  exitCode: number;
  /** The signal that ended the process, if one did (a drain past its job time limit ends itself with SIGKILL). */
  signal?: string;
  stdout: string;
  stderr: string;
}

/** A command as a user types it, through the bin. */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  return runEntry(BIN, args, options);
}

/** A hook as an agent runs it, through the entry `recall install` writes. */
export function runHook(event: string, payload: unknown, options: RunOptions): Promise<CliResult> {
  return runEntry(BIN, ['hook', event], { ...options, input: typeof payload === 'string' ? payload : JSON.stringify(payload) });
}

export async function runEntry(entry: string, args: readonly string[], options: RunOptions): Promise<CliResult> {
  const result = await execa(process.execPath, [entry, ...args], {
    env: options.env,
    extendEnv: false,
    input: options.input ?? '',
    cwd: options.cwd,
    reject: false,
    // Generous: a CLI round trip on a loaded machine (CI beside other jobs) can take many times its usual second.
    timeout: options.timeoutMs ?? 180_000,
    stripFinalNewline: false,
  });
  return {
    exitCode: result.exitCode ?? -1,
    ...(result.signal === undefined ? {} : { signal: result.signal }),
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
  };
}

/** An environment with nothing from the developer's own setup leaking in. */
export function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANCEDB_LOG: 'error' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, { timeoutMs = 30_000, everyMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The bin on a pseudo-terminal (util-linux `script`), as a person runs it: its stdout is a TTY. Returns the
 * output with the terminal's CR LF as LF and the escape sequences of bold taken out.
 */
export async function runOnTerminal(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const result = await execa('script', ['-q', '-e', '-c', command, '/dev/null'], { env, extendEnv: false, reject: false, input: '' });
  return {
    exitCode: result.exitCode ?? -1,
    // eslint-disable-next-line no-control-regex -- the bold of a table head, an escape sequence, is taken out.
    stdout: String(result.stdout).replace(/\r\n/g, '\n').replace(/\u001b\[[0-9;]*m/g, ''),
    stderr: String(result.stderr),
  };
}
