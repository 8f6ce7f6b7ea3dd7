#!/usr/bin/env node
/**
 * Entry point. Hooks take a fast path that loads node built-ins only (`--help` goes to the full
 * program, which prints the hook command's help; agents never pass it); `search` and `list` first
 * ask a running `recall serve` (built-ins only too); `recall mcp` starts the server directly;
 * `recall endless fork` runs without the command-line program when it can; everything else loads
 * the full command-line program. No top-level await: the build also emits this file as CommonJS
 * (dist/cli/main.cjs, see scripts/bundle-hooks.mjs).
 */
// Everything recall creates (state, queue, log, database files) is private to the user: 0700 / 0600.
process.umask(0o077);
void main(process.argv.slice(2));

function ignoreClosedPipe(err: NodeJS.ErrnoException): void {
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
  throw err;
}

async function main(args: string[]): Promise<void> {
  const [command, subcommand, ...rest] = args;
  if (command === 'hook' && !args.includes('--help') && !args.includes('-h')) {
    // Not process.stdout: a hook writes its one line to the descriptor (run-hook.ts), and making the
    // stream would load node's net and stream modules on every hook start.
    const { runHook } = await import('../hook/run-hook.js');
    await runHook(subcommand, rest);
    return;
  }
  // `recall stats | head -1`: the reader went away. What is left to print is dropped; the command finishes
  // its work and exits as usual instead of dying with a stack trace.
  process.stdout.on('error', ignoreClosedPipe);
  if (command === 'mcp' && subcommand === undefined) {
    // The start's front answers initialize and tools/list, then loads the full server (serve-mcp-fast.ts).
    const { runMcpEntry } = await import('../mcp/serve-mcp-fast.js');
    await runMcpEntry();
  } else if ((command === 'search' || command === 'list') && (await servedByDaemon())) {
    // Answered by a running `recall serve`.
  } else if (command === 'endless' && subcommand === 'fork' && (await forkedWithoutProgram(rest))) {
    // Forked without loading the command-line program.
  } else {
    const { runCli } = await import('./program.js');
    await runCli(process.argv);
  }
}

/** Asks a running `recall serve` to run this command line; false when there is none. */
async function servedByDaemon(): Promise<boolean> {
  const { runViaDaemon } = await import('../serve-client/try-served.js');
  const code = await runViaDaemon(process.argv.slice(2), process.env);
  if (code === null) return false;
  process.exitCode = code;
  return true;
}

/** `recall endless fork` on its light path; false when the full program must handle the command line. */
async function forkedWithoutProgram(args: string[]): Promise<boolean> {
  const { forkWithoutProgram } = await import('./commands/endless-fork-fast.js');
  return forkWithoutProgram(args, process.env);
}
