#!/usr/bin/env node
/**
 * Prints recall's configuration keys as a markdown table (key, env var, default, description), then
 * the environment variables that are no key (name, description), read from the BUILT modules in
 * dist/, so the README's configuration tables can be regenerated:
 *
 *   npm run build && node scripts/print-config-table.mjs
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const keysModule = new URL('../dist/config/config-keys.js', import.meta.url);
if (!existsSync(fileURLToPath(keysModule))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}
const { listConfigKeys } = await import(keysModule.href);
const { ENVIRONMENT_ONLY } = await import(new URL('../dist/config/environment-only.js', import.meta.url).href);

/** Keeps a value inside one table cell. */
function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function formatDefault(key) {
  if (!key.hasDefault) return key.optional ? '(none)' : '(required)';
  if (key.defaultValue === '') return '(empty)';
  return `\`${typeof key.defaultValue === 'string' ? key.defaultValue : JSON.stringify(key.defaultValue)}\``;
}

const rows = listConfigKeys().map((key) => [
  `\`${key.key}\``,
  key.envVar ? `\`${key.envVar}\`` : '',
  formatDefault(key),
  key.description ?? '',
]);

console.log('| Key | Env var | Default | Description |');
console.log('| --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.map(cell).join(' | ')} |`);
console.log('');
console.log('| Env var (no config key) | Description |');
console.log('| --- | --- |');
for (const { name, description } of ENVIRONMENT_ONLY) console.log(`| \`${name}\` | ${cell(description)} |`);
