/** The PostToolUse hook must load node built-ins and recall's own small modules only (no zod, no package). */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importClosure } from '../../support/import-graph.js';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

function closure(entry: string): { files: string[]; packages: string[] } {
  return importClosure(entry, { followDynamic: false });
}

describe('the PostToolUse hook path', () => {
  it('imports node built-ins only', () => {
    const { files, packages } = closure(join(SRC, 'hook/post-tool-use.ts'));
    expect(files.length).toBeGreaterThan(5);
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  it('reaches neither the config schema nor the model adapters', () => {
    const { files } = closure(join(SRC, 'hook/post-tool-use.ts'));
    const relative = files.map((f) => f.slice(SRC.length + 1));
    expect(relative).not.toContain('config/schema.ts');
    expect(relative).not.toContain('config/load-config.ts');
    expect(relative).not.toContain('adapters/ollama-llm.ts');
    expect(relative).not.toContain('adapters/ollama-embedder.ts');
    expect(relative.filter((f) => /^(worker|cli|store|embed|extract)\//.test(f))).toEqual([]);
  });

  it("calls Ollama through recall's one client and one error translation, which need no package", () => {
    const { files } = closure(join(SRC, 'hook/post-tool-use.ts'));
    const adapters = files.map((f) => f.slice(SRC.length + 1)).filter((f) => f.startsWith('adapters/'));
    expect(adapters.sort()).toEqual(['adapters/http-text-request.ts', 'adapters/ollama-http-client.ts', 'adapters/translate-ollama-error.ts']);
  });
});
