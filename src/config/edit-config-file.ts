/**
 * Changing one key of RECALL_HOME/config.json: pure edits that return a new object, a check that
 * the result is a valid config, and an atomic 0600 write.
 */
import { RecallError } from '../core/errors.js';
import { writeFileAtomic } from '../core/atomic-write.js';
import { getPath, type ConfigKey } from './config-keys.js';
import { evaluateConfig } from './evaluate-config.js';
import { setPath } from './env-overrides.js';

/** A copy of the file's content with `key` set to `value`. */
export function setConfigKey(fileRaw: Record<string, unknown>, key: ConfigKey, value: unknown): Record<string, unknown> {
  const next = structuredClone(fileRaw);
  setPath(next, key.path, value);
  return next;
}

/**
 * A copy without the key at `path` (and without groups it leaves empty); `removed` says whether it
 * was there. Any path works, so a stray key the schema does not know can be removed too.
 */
export function unsetConfigKey(fileRaw: Record<string, unknown>, path: readonly string[]): { next: Record<string, unknown>; removed: boolean } {
  const next = structuredClone(fileRaw);
  if (path.length === 0 || getPath(next, path) === undefined) return { next, removed: false };
  const parents: Array<Record<string, unknown>> = [next];
  for (const segment of path.slice(0, -1)) parents.push(parents[parents.length - 1]![segment] as Record<string, unknown>);
  delete parents[parents.length - 1]![path[path.length - 1]!];
  for (let i = parents.length - 1; i > 0; i -= 1) {
    if (Object.keys(parents[i]!).length > 0) break;
    delete parents[i - 1]![path[i - 1]!];
  }
  return { next, removed: true };
}

/**
 * Throws CONFIG_INVALID naming every bad key when the file's content is not a valid config on its
 * own (environment overrides aside). `changedKey` is the key being set: other bad keys were
 * already wrong in the file, and the message says so.
 */
export function assertValidConfigFile(fileRaw: Record<string, unknown>, configFile: string, changedKey?: string): void {
  const result = evaluateConfig(fileRaw, {});
  if (result.ok) return;
  const problems = result.problems.map((p) =>
    p.key === changedKey || changedKey === undefined ? `${p.key}: ${p.message}` : `${p.key} (already wrong in ${configFile}): ${p.message}`,
  );
  throw new RecallError('CONFIG_INVALID', `not written: ${problems.join('; ')}`);
}

export function writeConfigFile(configFile: string, fileRaw: Record<string, unknown>): void {
  try {
    writeFileAtomic(configFile, `${JSON.stringify(fileRaw, null, 2)}\n`, 0o600);
  } catch (err) {
    throw new RecallError('STATE_UNWRITABLE', `cannot write ${configFile}: ${(err as Error).message}`, { cause: err });
  }
}
