/**
 * Starts `recall serve` in the background for `recall serve --detach`: its own session, stdout and
 * stderr into a private file in the state dir, and its exit watched while the caller waits, so a
 * daemon that dies before it answers is reported with its exit code and last words.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { CLI_ENTRY } from '../hook/spawn-worker.js';

export interface DetachedServe {
  pid: number;
  /** Resolves with the exit code (or the signal's name) if the daemon exits while it is watched. */
  exited: Promise<number | string>;
  /** Stops watching: the caller may exit while the daemon runs on. */
  release(): void;
}

export function spawnDetachedServe(env: NodeJS.ProcessEnv, cwd: string, outputFile: string): Promise<DetachedServe> {
  const fd = openSync(outputFile, 'w', 0o600);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'serve'], { detached: true, stdio: ['ignore', fd, fd], env, cwd, windowsHide: true });
    closeSync(fd);
    const exited = new Promise<number | string>((settle) => child.once('exit', (code, signal) => settle(code ?? signal ?? 'unknown')));
    child.once('error', reject);
    child.once('spawn', () => resolve({ pid: child.pid as number, exited, release: () => child.unref() }));
  });
}

/** The last non-blank lines of the daemon's output, for an error message; empty when there are none. */
export function lastOutputLines(outputFile: string, count = 5): string[] {
  try {
    return readFileSync(outputFile, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .slice(-count);
  } catch {
    return [];
  }
}
