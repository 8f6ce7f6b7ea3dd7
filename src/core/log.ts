/** Append-only log file in the state dir (0600, never written through a symlink). Node built-ins only: hooks use it. Never throws. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendPrivateFile } from './private-paths.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /**
   * Applied to every string of a line before it is written: loggers of code that handles untrusted text
   * (transcripts, tool output, model answers) pass the redactor, so no secret rests in the log. The
   * redactor is handed in rather than imported here because the SessionEnd hook logs through this file
   * and must stay light.
   */
  redact?: (line: string) => string;
}

export function fileLogger(file: string, component: string, options: LoggerOptions = {}): Logger {
  return {
    log(level, message, fields) {
      let line: string;
      try {
        const redact = options.redact;
        const entry = { t: new Date().toISOString(), level, component, pid: process.pid, msg: message, ...fields };
        // Each string on its own, so the line stays one valid JSON object.
        line = JSON.stringify(redact ? redactStrings(entry, redact, 0) : entry);
      } catch {
        line = JSON.stringify({ t: new Date().toISOString(), level, component, pid: process.pid, msg: 'log line withheld: it could not be written safely' });
      }
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

function redactStrings(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) return redact(String(value));
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact, depth + 1)]));
}

export const silentLogger: Logger = { log() {} };
