/**
 * The version files of a Lance table on local disk, read with node built-ins only: each commit is
 * `_versions/<n>.manifest`, ending in Lance's 4-byte magic `LANC`. Newer tables name them
 * `u64::MAX - version` (20 digits, so they sort newest first); older ones by the version itself.
 * A newest manifest without its magic (cut short by a crash or a full disk, overwritten) stops
 * LanceDB from opening the table at all; the versions before it are still whole.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface VersionFile {
  /** The manifest's path. */
  path: string;
  version: bigint;
  readable: boolean;
}

const U64_MAX = 2n ** 64n - 1n;
const MAGIC = 'LANC';

/** Every manifest of the table, newest first; empty when the table has no versions folder. */
export function listVersionFiles(tableDir: string): VersionFile[] {
  const dir = join(tableDir, '_versions');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files = names.flatMap((name) => {
    const match = /^(\d+)\.manifest$/.exec(name);
    if (match === null) return [];
    const n = BigInt(match[1] as string);
    const version = (match[1] as string).length === 20 && n > U64_MAX / 2n ? U64_MAX - n : n;
    const path = join(dir, name);
    return [{ path, version, readable: endsWithMagic(path) }];
  });
  return files.sort((a, b) => (a.version === b.version ? 0 : a.version > b.version ? -1 : 1));
}

/** The unreadable newest versions (empty when the newest one is fine) and the newest readable one. */
export function damagedHead(tableDir: string): { damaged: VersionFile[]; lastGood: VersionFile | null } {
  const files = listVersionFiles(tableDir);
  const firstGood = files.findIndex((f) => f.readable);
  return firstGood === -1 ? { damaged: files, lastGood: null } : { damaged: files.slice(0, firstGood), lastGood: files[firstGood] ?? null };
}

/**
 * Data files of the table that do not end in Lance's magic (cut short, overwritten): the ones a
 * repair sets aside. A file damaged inside while its end is whole is not found here; the rewrite
 * leaves it out of the table all the same.
 */
export function unreadableDataFiles(tableDir: string): string[] {
  const dir = join(tableDir, 'data');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith('.lance')).map((name) => join(dir, name)).filter((path) => !endsWithMagic(path));
}

/** Moves files into `<storeDir>/.recall-damaged/<stamp>/` (same disk, never deleted); returns the folder. */
export function setAsideFiles(storeDir: string, files: readonly string[], stamp: string): string {
  const dir = join(storeDir, '.recall-damaged', stamp);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const path of files) renameSync(path, join(dir, basename(path)));
  return dir;
}

function endsWithMagic(path: string): boolean {
  let fd: number | undefined;
  try {
    const size = statSync(path).size;
    if (size < 16) return false;
    fd = openSync(path, 'r');
    const tail = Buffer.alloc(MAGIC.length);
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return tail.toString('latin1') === MAGIC;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Moves the damaged newest manifests (and Lance's latest-version hint, which names one of them) into
 * `<storeDir>/.recall-damaged/<stamp>/`, on the same disk and never deleted, so the table opens at
 * its last readable version. Returns the moved paths.
 */
export function setAsideDamaged(storeDir: string, tableName: string, damaged: readonly VersionFile[], stamp: string): { dir: string; moved: string[] } {
  const dir = join(storeDir, '.recall-damaged', stamp);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const hint = join(storeDir, `${tableName}.lance`, '_versions', 'latest_version_hint.json');
  const moved: string[] = [];
  for (const path of [...damaged.map((f) => f.path), ...(existsSync(hint) ? [hint] : [])]) {
    const target = join(dir, basename(path));
    renameSync(path, target);
    moved.push(target);
  }
  return { dir, moved };
}
