/** docs/configuration.md's tables are the ones the key table prints. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderConfigTables, renderKeysTable } from '../../../src/config/config-table-markdown.js';
import { listTableKeys } from '../../../src/config/key-table.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the configuration tables', () => {
  it('are in docs/configuration.md exactly as the key table renders them', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    expect(readme).toContain(renderConfigTables());
  });

  it('give each key one row with its env var, default and allowed values', () => {
    const rows = renderKeysTable().split('\n').slice(2);
    expect(rows).toHaveLength(listTableKeys().length);
    expect(rows.some((row) => row.startsWith('| `ollama.llmModel` | `RECALL_OLLAMA_LLM_MODEL` | (none) | non-empty text |'))).toBe(true);
    expect(rows.some((row) => row.startsWith('| `endless.syncTimeoutMs` | `RECALL_SYNC_TIMEOUT_MS` | `60000` | a whole number from 1 to 85000 |'))).toBe(true);
    expect(rows.find((row) => row.startsWith('| `store.uri` |'))).toMatch(/\| \(empty\) \|/);
  });
});
