/** `recall search`/`list` ask a running `recall serve` first; null means "run it here instead". */
import { resolveHome } from '../core/state-paths.js';
import { terminalColumns } from '../core/terminal-columns.js';
import { requestDaemon, serveLink } from './serve-client.js';

export async function runViaDaemon(args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const socketPath = serveLink(resolveHome(env), env);
  if (socketPath === null) return null;
  const response = await requestDaemon(socketPath, {
    v: 1,
    argv: args,
    cwd: process.cwd(),
    columns: terminalColumns(env.COLUMNS, process.stdout.columns) ?? null,
    isTTY: process.stdout.isTTY === true,
    noColor: Boolean(env.NO_COLOR),
  });
  if (response === null) return null;
  process.stdout.write(response.stdout);
  process.stderr.write(response.stderr);
  return response.exitCode;
}
