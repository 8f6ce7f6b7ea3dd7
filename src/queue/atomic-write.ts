/** Write-then-rename so a reader never sees half a file. Node built-ins only. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  const dir = dirname(file);
  ensureDir(dir);
  const tmp = join(dir, `.tmp-${basename(file)}-${randomBytes(4).toString('hex')}`);
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      // writeFileSync loops until every byte is written; a bare writeSync can return short on a
      // nearly full disk, and the half file would then be renamed into place.
      writeFileSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
