/** Writes RECALL_HOME/config.json atomically, mode 0600, as pretty JSON. */
import { RecallError } from '../core/errors.js';
import { writeFileAtomic } from '../queue/atomic-write.js';

export function writeConfigFile(configFile: string, fileRaw: Record<string, unknown>): void {
  try {
    writeFileAtomic(configFile, `${JSON.stringify(fileRaw, null, 2)}\n`, 0o600);
  } catch (err) {
    throw new RecallError('STATE_UNWRITABLE', `cannot write ${configFile}: ${(err as Error).message}`, { cause: err });
  }
}
