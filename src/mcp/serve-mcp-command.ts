/** `recall mcp` from start to exit; main.ts calls it directly so the server skips loading the command-line program. */
import { readFileSync } from 'node:fs';
import { runMcpServer } from './run-mcp-server.js';

/** After the server closed, anything a library left running gets this long before the process exits anyway. */
const EXIT_GRACE_MS = 1_000;

/**
 * `stdin`: where the client's messages come from (process.stdin unless the start's front hands over its
 * stream, serve-mcp-fast.ts); `hiddenAnswerIds`: requests the front answered already, replayed so the
 * server knows the session, whose answers are not sent again.
 */
export async function serveMcpCommand({ stdin, hiddenAnswerIds }: { stdin?: NodeJS.ReadableStream | undefined; hiddenAnswerIds?: ReadonlySet<string> | undefined } = {}): Promise<void> {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  await runMcpServer({ version, cwd: process.cwd(), env: process.env, stdin, hiddenAnswerIds });
  process.stdin.destroy();
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
}
