/**
 * RECALL_HOME/config.json read for the hooks: node built-ins only, never throws. What cannot be used
 * is said in `problems` and the defaults apply (the CLI's loader, load-config.ts, refuses instead).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonObject } from '../core/read-json-object.js';

/** The file's object, or `{}` with a problem when it is unreadable or not a JSON object; `{}` alone when it is absent. */
export function readConfigJsonLeniently(home: string, problems: string[]): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(join(home, 'config.json'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`config.json: unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return {};
  }
  const parsed = parseJsonObject(text);
  if (parsed.ok) return parsed.record;
  problems.push('config.json: not a JSON object; using defaults');
  return {};
}
