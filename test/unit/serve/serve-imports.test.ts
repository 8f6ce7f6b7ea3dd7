/** What a client of `recall serve` loads: node built-ins only, so asking the daemon costs no library import. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importClosure } from '../../support/import-graph.js';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

describe('the recall serve clients', () => {
  it.each(['serve-client/try-served.ts', 'serve-client/served-embedder.ts', 'serve-client/served-context.ts', 'serve-client/serve-identity.ts'])('%s imports node built-ins only', (file) => {
    const { packages } = importClosure(join(SRC, file), { followDynamic: true });
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual([]);
  });
});
