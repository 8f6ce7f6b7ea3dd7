/** The one place a command's error becomes a message and an exit code. */
import { CommanderError } from 'commander';
import { RecallError } from '../core/errors.js';
import { out } from './output.js';

export function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version exit 0; usage errors were already printed by commander.
    return err.exitCode;
  }
  if (err instanceof RecallError) {
    out.error(err.message);
    return 1;
  }
  out.error(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return 2;
}
