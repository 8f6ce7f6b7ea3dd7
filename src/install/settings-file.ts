/**
 * Reads and writes an agent's settings file: the I/O edge of install/uninstall.
 * Refuses what it cannot safely rewrite, keeps a backup beside the file, writes atomically,
 * keeps the file's mode, and writes through a symlink rather than replacing it.
 */
import { chmodSync, constants, copyFileSync, existsSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { RecallError } from '../core/errors.js';
import { writeFileAtomic } from '../core/atomic-write.js';
import { DEFAULT_JSON_FORMAT, detectJsonFormat, parseJsonText, type JsonFormat } from './json-format.js';
import { isObject } from '../core/is-object.js';
import type { JsonObject } from './merge-hooks.js';

export interface SettingsSnapshot {
  /** The path the user knows (may be a symlink). */
  file: string;
  /** Where the bytes live: `file` with symlinks resolved. */
  target: string;
  exists: boolean;
  settings: JsonObject;
  format: JsonFormat;
  /** Permission bits of the existing file; null when it does not exist yet. */
  mode: number | null;
}

/** New settings files are private to the user, like everything else recall writes. */
const NEW_FILE_MODE = 0o600;

/** A settings file's text as it is on disk (any format), or `exists: false`. Refuses what is not a regular file. */
export interface RawSettingsFile {
  file: string;
  target: string;
  exists: boolean;
  text: string;
  mode: number | null;
}

export function readRawSettingsFile(file: string): RawSettingsFile {
  let stat;
  try {
    stat = statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, target: file, exists: false, text: '', mode: null };
    throw new RecallError('CONFIG_INVALID', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (stat.isDirectory()) throw new RecallError('CONFIG_INVALID', `${file} is a directory, not a settings file; recall changed nothing`);
  if (!stat.isFile()) throw new RecallError('CONFIG_INVALID', `${file} is not a regular file; recall changed nothing`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new RecallError('CONFIG_INVALID', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  return { file, target: realpathSync(file), exists: true, text, mode: stat.mode & 0o7777 };
}

export function readSettingsFile(file: string): SettingsSnapshot {
  const raw = readRawSettingsFile(file);
  if (!raw.exists) return { file, target: file, exists: false, settings: {}, format: DEFAULT_JSON_FORMAT, mode: null };
  let parsed: unknown;
  try {
    parsed = parseJsonText(raw.text);
  } catch (err) {
    throw new RecallError('CONFIG_INVALID', `${file} is not valid JSON (${(err as Error).message}); fix it first, recall changed nothing`, { cause: err });
  }
  if (!isObject(parsed)) throw new RecallError('CONFIG_INVALID', `${file} must hold a JSON object; recall changed nothing`);
  return { file, target: raw.target, exists: true, settings: parsed, format: detectJsonFormat(raw.text), mode: raw.mode };
}

/** `settings.json.recall-backup-2026-01-02T03-04-05-678Z`, with `-2`, `-3`... if that name is taken. */
export function backupPathFor(file: string, now: Date, exists: (path: string) => boolean = existsSync): string {
  const base = `${file}.recall-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  let candidate = base;
  for (let n = 2; exists(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** Backs up the current file (if any), then replaces it atomically. Returns the backup path. */
export function writeSettingsFile(snapshot: Pick<SettingsSnapshot, 'file' | 'target' | 'exists' | 'mode'>, text: string, now: Date): { backup: string | null } {
  const mode = snapshot.mode ?? NEW_FILE_MODE;
  let backup: string | null = null;
  try {
    if (snapshot.exists) {
      backup = backupPathFor(snapshot.file, now);
      copyFileSync(snapshot.target, backup, constants.COPYFILE_EXCL);
      chmodSync(backup, mode);
    }
    writeFileAtomic(snapshot.target, text, mode);
  } catch (err) {
    // The original is untouched (the write is a rename), so a backup of it is only clutter.
    if (backup) rmSync(backup, { force: true });
    throw new RecallError('STATE_UNWRITABLE', `cannot write ${snapshot.file}: ${(err as Error).message}; recall changed nothing`, { cause: err });
  }
  try {
    // The CLI runs with umask 077, which narrows the mode open() applies: set it explicitly.
    chmodSync(snapshot.target, mode);
  } catch (err) {
    throw new RecallError('STATE_UNWRITABLE', `wrote ${snapshot.file} but could not set its mode to ${mode.toString(8)}: ${(err as Error).message}`, { cause: err });
  }
  return { backup };
}
