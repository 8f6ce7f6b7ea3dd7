/**
 * The README's configuration tables, made from the key table and the environment-only table:
 * `npm run build && node scripts/print-config-table.mjs` prints them, and a test holds the README to
 * them. Pure.
 */
import { ENVIRONMENT_ONLY } from './environment-only.js';
import { describeAllowed } from './describe-allowed.js';
import { listTableKeys, type KeySpec } from './key-table.js';

/** Keeps a value inside one table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function formatDefault(spec: KeySpec): string {
  if (spec.default === undefined) return '(none)';
  if (spec.default === '') return '(empty)';
  return `\`${typeof spec.default === 'string' ? spec.default : JSON.stringify(spec.default)}\``;
}

/** Key, env var, default, allowed values and description of every key, in table order. */
export function renderKeysTable(): string {
  const rows = listTableKeys().map(({ key, spec }) => [`\`${key}\``, spec.env ? `\`${spec.env}\`` : '', formatDefault(spec), describeAllowed(spec), spec.description]);
  return ['| Key | Env var | Default | Allowed | Description |', '| --- | --- | --- | --- | --- |', ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

/** The environment variables that are no key. */
export function renderEnvironmentOnlyTable(): string {
  const rows = ENVIRONMENT_ONLY.map(({ name, description }) => `| \`${name}\` | ${cell(description)} |`);
  return ['| Env var (no config key) | Description |', '| --- | --- |', ...rows].join('\n');
}

/** Both tables, a blank line between them. */
export function renderConfigTables(): string {
  return `${renderKeysTable()}\n\n${renderEnvironmentOnlyTable()}\n`;
}
