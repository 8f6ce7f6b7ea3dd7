#!/usr/bin/env node
/**
 * Prints recall's configuration keys as a markdown table (key, env var, default, description), then
 * the environment variables that are no key (name, description), from the key table in the BUILT
 * modules in dist/, so docs/configuration.md's tables can be regenerated:
 *
 *   npm run build && node scripts/print-config-table.mjs
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const tableModule = new URL('../dist/config/config-table-markdown.js', import.meta.url);
if (!existsSync(fileURLToPath(tableModule))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}
const { renderConfigTables } = await import(tableModule.href);
process.stdout.write(renderConfigTables());
