#!/usr/bin/env node
/**
 * Entry point. Hooks take a fast path that loads node built-ins only; everything else loads
 * the full command-line program.
 */
// Everything recall creates (state, queue, log, database files) is private to the user: 0700 / 0600.
process.umask(0o077);

const [command, subcommand, ...rest] = process.argv.slice(2);

if (command === 'hook') {
  const { runHook } = await import('../hook/run-hook.js');
  await runHook(subcommand, rest);
} else {
  const { runCli } = await import('./program.js');
  await runCli(process.argv);
}
