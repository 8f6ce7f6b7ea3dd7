/**
 * Write-then-rename so a reader never sees half a file. Node built-ins only, and not node:crypto:
 * the SessionEnd hook writes its job through here, and loading crypto would add ~3 ms to it.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  const dir = dirname(file);
  ensureDir(dir);
  // Unique enough for a temp name (Math.random is seeded per process); 'wx' refuses a clash anyway.
  const random = Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0');
  const tmp = join(dir, `.tmp-${basename(file)}-${random}`);
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
