/**
 * Writing a compressed transcript: to a temp file beside the target (0600 while it is written, then
 * the mode asked for), fsynced, optionally checked, then renamed into place, so no reader ever sees a
 * half-written transcript. Buffers rather than a string: a fork writes most lines back as the very
 * bytes it read. Node built-ins only.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, copyFileSync, fchmodSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writevSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface ReplaceHooks {
  /** Permission bits of the written file (the original's, for a transcript); 0600 when not given. */
  mode?: number;
  /** Runs on the complete, fsynced temp file; a throw removes it and leaves the target alone. */
  beforeRename?(tempPath: string): void;
  /** Runs once the target holds the new content. */
  afterRename?(): void;
}

/** `chunks` are written in order, as one file of `size` bytes. */
export function writeFileReplacing(path: string, chunks: readonly Buffer[], size: number, hooks: ReplaceHooks = {}): void {
  const temp = tempBeside(path);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      // libuv keeps writing until every chunk is out or the disk refuses; a short count means it refused.
      const written = writevSync(fd, chunks as Buffer[]);
      if (written !== size) throw Object.assign(new Error(`wrote ${written} of ${size} bytes to ${temp} (disk full?)`), { code: 'ENOSPC' });
      if (hooks.mode !== undefined) fchmodSync(fd, hooks.mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    hooks.beforeRename?.(temp);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  hooks.afterRename?.();
}

/** Puts a copy of `from` at `to` with a rename, so `to` is never half restored. */
export function restoreFile(from: string, to: string): void {
  const temp = tempBeside(to);
  copyFileSync(from, temp);
  renameSync(temp, to);
}

/**
 * A copy of `from` at `to`, which must not exist: copied to a temp file beside it (mode included),
 * then linked into place, so `to` is either absent or whole, and an existing file is never replaced.
 * On a file system without hard links, copied straight to `to` (still never over an existing file).
 */
export function copyFileExclusive(from: string, to: string): void {
  const temp = tempBeside(to);
  try {
    copyFileSync(from, temp, constants.COPYFILE_EXCL);
    try {
      linkSync(temp, to);
    } catch (err) {
      if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      copyFileSync(from, to, constants.COPYFILE_EXCL);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

const NO_HARD_LINKS: ReadonlySet<string> = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.recall-${randomBytes(4).toString('hex')}`);
}
