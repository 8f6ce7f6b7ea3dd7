/** The PostToolUse hook must load node built-ins and recall's own small modules only (no zod, no ollama). */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

/** Static value imports of one file (type-only imports vanish at compile time). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?[^'";]*?from\s+'([^']+)';/gm)) if (!match[1]) specs.push(match[2]!);
  for (const match of text.matchAll(/^import\s+'([^']+)';/gm)) specs.push(match[1]!);
  return specs;
}

function closure(entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) queue.push(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  }
  return { files: [...seen], packages: [...packages] };
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
    expect(relative).not.toContain('adapters/ollama-client.ts');
    expect(relative).not.toContain('adapters/ollama-llm.ts');
    expect(relative.filter((f) => /^(adapters|worker|cli|store|embed|extract)\//.test(f))).toEqual([]);
  });
});
