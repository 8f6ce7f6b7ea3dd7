/** `recall search`/`list` ask a running `recall serve` first; null means "run it here instead". */
import { resolveHome } from '../core/state-paths.js';
import { requestDaemon, serveSocketPath } from './serve-client.js';

export async function runViaDaemon(args: string[]): Promise<number | null> {
  if (/^(1|true|yes)$/i.test(process.env.RECALL_NO_SERVE ?? '')) return null;
  const response = await requestDaemon(serveSocketPath(resolveHome(process.env)), {
    v: 1,
    argv: args,
    cwd: process.cwd(),
    columns: process.stdout.columns ?? null,
    isTTY: process.stdout.isTTY === true,
    noColor: Boolean(process.env.NO_COLOR),
  });
  if (response === null) return null;
  process.stdout.write(response.stdout);
  process.stderr.write(response.stderr);
  return response.exitCode;
}
