/** Write-then-rename so a reader never sees half a file. Node built-ins only. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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
      writeSync(fd, content);
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
