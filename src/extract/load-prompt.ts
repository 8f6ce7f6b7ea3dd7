/**
 * Prompts live as text in the package's top-level `prompts/` folder. This module sits two levels
 * below the package root both as src/extract/*.ts and as dist/extract/*.js, so one relative URL
 * finds the folder from either.
 */
import { readFile } from 'node:fs/promises';

const PROMPTS_DIR = new URL('../../prompts/', import.meta.url);
const cache = new Map<string, Promise<string>>();

/**
 * The text of `prompts/<name>.md`, trimmed, read once per process.
 * A missing file means a broken install, so it throws a plain Error (a bug, not a condition).
 */
export function loadPrompt(name: string): Promise<string> {
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`invalid prompt name: ${name}`);
  let text = cache.get(name);
  if (!text) {
    const url = new URL(`${name}.md`, PROMPTS_DIR);
    text = readFile(url, 'utf8').then(
      (content) => content.trim(),
      (err: unknown) => {
        cache.delete(name);
        throw new Error(`prompt file missing: ${url.pathname}`, { cause: err });
      },
    );
    cache.set(name, text);
  }
  return text;
}

/** Replaces `{{key}}` placeholders; values are inserted literally (no `$&` surprises). */
export function fillPrompt(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (placeholder, key: string) => values[key] ?? placeholder);
}
