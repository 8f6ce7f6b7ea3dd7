/**
 * Which project a working directory belongs to, and the memory namespace that follows from it.
 * Node built-ins only: hooks may import this.
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/** A directory holding any of these is a project root. */
export const PROJECT_MARKERS = ['.git', 'package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod'] as const;

export const GLOBAL_NAMESPACE = 'global';

export interface ResolvedProject {
  namespace: string;
  /** The root folder's name, or null for the global namespace. */
  name: string | null;
  /** The real (symlink-free) path of the root, or null for the global namespace. */
  root: string | null;
}

const GLOBAL: ResolvedProject = Object.freeze({ namespace: GLOBAL_NAMESPACE, name: null, root: null });

/**
 * Walks up from `cwd` to the nearest directory holding a project marker. The home directory and
 * the filesystem root are never project roots, even with a marker (a stray `~/package.json` or a
 * dotfiles `~/.git` must not fold every unmarked folder under home into one project); the walk
 * stops there and the answer is the global namespace. So does a missing or nonexistent `cwd`.
 *
 * The namespace is `project:<name>-<8 hex of sha256(real root path)>`, so two projects that share
 * a folder name never share memories, and a path reached through a symlink maps to the same one.
 */
export function resolveProject(cwd: string | null | undefined, options: { homeDir?: string } = {}): ResolvedProject {
  if (cwd === null || cwd === undefined || cwd.trim() === '') return GLOBAL;
  const start = realpathOrNull(resolve(cwd));
  if (start === null) return GLOBAL;
  const home = realpathOrNull(options.homeDir ?? homedir());

  for (let dir = start; ; dir = dirname(dir)) {
    const parent = dirname(dir);
    if (dir === home || parent === dir) return GLOBAL;
    if (PROJECT_MARKERS.some((marker) => existsSync(join(dir, marker)))) return projectAt(dir);
  }
}

function projectAt(root: string): ResolvedProject {
  const name = basename(root);
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 8);
  return { namespace: `project:${name}-${hash}`, name, root };
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}
