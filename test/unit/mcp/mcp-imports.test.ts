/** `recall mcp` must start without LanceDB, transformers or ollama: they load on the first call that needs them. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

/** Static value imports of one file (type-only imports vanish at compile time; dynamic import() is not followed). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?[^'";]*?from\s+'([^']+)';/gm)) if (!match[1]) specs.push(match[2]!);
  for (const match of text.matchAll(/^import\s+'([^']+)';/gm)) specs.push(match[1]!);
  return specs;
}

function packagesReached(entry: string): string[] {
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
  return [...packages];
}

describe('the recall mcp start path', () => {
  it('imports neither LanceDB, arrow, transformers nor ollama', () => {
    const packages = packagesReached(join(SRC, 'mcp/run-mcp-server.ts'));
    expect(packages).toContain('@modelcontextprotocol/sdk/server/mcp.js');
    expect(packages.filter((name) => /lancedb|apache-arrow|transformers|ollama/.test(name))).toEqual([]);
  });

  it('is not loaded by other commands: the command file only imports commander types', () => {
    expect(valueImports(join(SRC, 'cli/commands/mcp.ts'))).toEqual([]);
  });
});
