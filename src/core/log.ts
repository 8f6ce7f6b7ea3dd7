/** Append-only log file in the state dir (0600, never written through a symlink). Node built-ins only: hooks use it. Never throws. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendPrivateFile } from './private-paths.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export function fileLogger(file: string, component: string): Logger {
  return {
    log(level, message, fields) {
      const line = JSON.stringify({ t: new Date().toISOString(), level, component, pid: process.pid, msg: message, ...fields });
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        // Never through a symlink planted at the log's path (see private-paths.ts).
        appendPrivateFile(file, `${line}\n`);
      } catch {
        // A log that cannot be written must not take the caller down.
      }
    },
  };
}

export const silentLogger: Logger = { log() {} };
