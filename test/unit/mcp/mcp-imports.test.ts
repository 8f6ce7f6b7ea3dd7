/** `recall mcp` must start without LanceDB, transformers or ollama: they load on the first call that needs them. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importClosure } from '../../support/import-graph.js';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

function packagesReached(entry: string): string[] {
  return importClosure(entry, { followDynamic: false }).packages;
}

describe('the recall mcp start path', () => {
  it('imports neither LanceDB, arrow, transformers nor ollama', () => {
    const packages = packagesReached(join(SRC, 'mcp/run-mcp-server.ts'));
    expect(packages).toContain('@modelcontextprotocol/sdk/server/mcp.js');
    expect(packages.filter((name) => /lancedb|apache-arrow|transformers|ollama/.test(name))).toEqual([]);
  });

  it('starts without loading the command-line program', () => {
    const { files, packages } = importClosure(join(SRC, 'mcp/serve-mcp-command.ts'), { followDynamic: false });
    expect(packages).not.toContain('commander');
    expect(files.filter((f) => /\/cli\/(program|commands\/)/.test(f))).toEqual([]);
  });

  it('is not loaded by other commands: the command file only imports commander types', () => {
    const entry = join(SRC, 'cli/commands/mcp.ts');
    expect(importClosure(entry, { followDynamic: false })).toEqual({ files: [entry], packages: [] });
  });
});
