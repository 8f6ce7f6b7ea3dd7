/** Append-only log file in the state dir (0600). Node built-ins only: hooks use it. Never throws. */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

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
        appendFileSync(file, `${line}\n`, { mode: 0o600 });
      } catch {
        // A log that cannot be written must not take the caller down.
      }
    },
  };
}

export const silentLogger: Logger = { log() {} };
