/**
 * `recall endless fork` without the command-line program. Loading commander, the zod config schema
 * and every command costs about three times what forking a 2,000-tool-use session does, so main.ts
 * sends `endless fork` here first, the way hooks and `recall mcp` take their own paths.
 *
 * It handles only command lines it fully understands and a configuration it reads cleanly; for
 * anything else (--help, --in-place, an unknown or malformed option, a config value the schema
 * would refuse) it returns false before doing anything, and the full program runs instead, so help
 * and error messages are the commander path's own. Settings come from the same built-ins-only reader
 * the PostToolUse hook uses (endless and ollama keys, the schema's defaults and env names); values
 * of other config sections are not looked at here. The model client is loaded only when a missing
 * observation has to be asked for.
 */
import { RecallError } from '../../core/errors.js';
import { fileLogger } from '../../core/log.js';
import { ensureStateDir, resolveHome, statePaths } from '../../core/state-paths.js';
import { readEndlessSettings } from '../../endless/endless-settings.js';
import type { ObserveFn } from '../../endless/ollama-observe.js';
import { lines } from '../lines.js';
import { transcriptArg } from './endless-common.js';
import { runEndlessFork, type ForkFlags } from './endless-fork-run.js';

/** Runs the fork and returns true, or returns false untouched when the full program must handle it. */
export async function forkWithoutProgram(args: readonly string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const parsed = parseForkArgs(args);
  if (parsed === null) return false;
  const home = resolveHome(env);
  const { settings, problems } = readEndlessSettings(env, home);
  if (problems.length > 0) return false;
  try {
    const path = transcriptArg(parsed.transcript);
    ensureStateDir(home);
    await runEndlessFork(path, parsed.flags, {
      home,
      settings,
      observe: observeLazily,
      now: () => Date.now(),
      logger: fileLogger(statePaths(home).logFile, 'cli.endless'),
      // --in-place (the only user of the lock) goes through the full program.
      lockStaleMs: 0,
      keepRecent: settings.keepRecent,
    });
  } catch (err) {
    process.exitCode = reportError(err);
  }
  return true;
}

const COUNT_OPTIONS = { '--keep-recent': 'keepRecent', '--min-chars': 'minChars', '--read-min-chars': 'readMinChars', '--fork-min-chars': 'forkMinChars' } as const;

/**
 * `<transcript> [--keep-recent N] [--min-chars N] [--read-min-chars N] [--fork-min-chars N] [--no-model] [--json]`, in
 * any order, `--name=N` or `--name N`; null for anything else.
 */
export function parseForkArgs(args: readonly string[]): { transcript: string; flags: ForkFlags } | null {
  const flags: ForkFlags = { model: true };
  let transcript: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--json') flags.json = true;
    else if (arg === '--no-model') flags.model = false;
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (!Object.hasOwn(COUNT_OPTIONS, name)) return null;
      const value = eq === -1 ? args[(i += 1)] : arg.slice(eq + 1);
      if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
      flags[COUNT_OPTIONS[name as keyof typeof COUNT_OPTIONS]] = Number(value);
    } else if (transcript === undefined && arg !== '' && !arg.startsWith('-')) transcript = arg;
    else return null;
  }
  return transcript === undefined ? null : { transcript, flags };
}

const observeLazily: ObserveFn = async (request) => (await import('../../endless/ollama-observe.js')).requestObservation(request);

/** The same line and exit code the full program gives (cli/program.ts): one `recall: ...` line, 1; a bug, 2. */
function reportError(err: unknown): number {
  if (err instanceof RecallError) {
    lines.error(err.message);
    return 1;
  }
  lines.error(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return 2;
}
