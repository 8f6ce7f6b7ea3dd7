/** Every environment variable recall reads is listed once, and only the entry points read process.env. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENV_OVERRIDES } from '../../../src/config/env-overrides.js';
import { ENVIRONMENT_ONLY } from '../../../src/config/environment-only.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(ROOT, file), code: readFileSync(file, 'utf8') }));

/** Where process.env may be read: the config loader, the entry points, and the command-line program's edge. */
const MAY_READ_PROCESS_ENV = [
  /^src\/config\//,
  /^src\/cli\/main\.ts$/,
  /^src\/hook\/run-hook\.ts$/,
  /^src\/mcp\/serve-mcp-command\.ts$/,
  // The command-line program's one reader (commandEnv): commands take the environment from it and pass values down.
  /^src\/cli\/terminal\.ts$/,
  // Sets LanceDB's own variables (LANCEDB_LOG, LANCE_CPU_THREADS, LANCE_IO_THREADS) before the native library starts.
  /^src\/adapters\/lance-store\.ts$/,
  // The upkeep child's entry point: it reads the credentials its parent handed it.
  /^src\/app\/maintain-child\.ts$/,
];

describe('the environment', () => {
  it('is read through process.env only by the entry points and the config loader; the stages get values passed in', () => {
    const readers = files.filter((f) => /process\.env\b/.test(f.code.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))).map((f) => f.path);
    expect(readers.filter((path) => !MAY_READ_PROCESS_ENV.some((allowed) => allowed.test(path)))).toEqual([]);
  });

  it('lists every variable the code names, in ENV_OVERRIDES or in the environment-only table', () => {
    const listed = new Set([...ENV_OVERRIDES.map(([name]) => name), ...ENVIRONMENT_ONLY.map((v) => v.name)]);
    const named = new Set<string>();
    for (const { code } of files) {
      for (const m of code.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b/g)) named.add(m[1]!);
      for (const m of code.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)) named.add(m[1]!);
      for (const m of code.matchAll(/['"]((?:RECALL|OLLAMA|AWS)_[A-Z0-9_]+)['"]/g)) named.add(m[1]!);
    }
    expect([...named].filter((name) => !listed.has(name)).sort()).toEqual([]);
    expect(named.has('RECALL_HOOK_SPAWN') && named.has('RECALL_NO_SERVE')).toBe(true);
  });

  it('has every environment-only variable in docs/configuration.md with its description', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    for (const { name, description } of ENVIRONMENT_ONLY) expect(readme).toContain(`| \`${name}\` | ${description.replace(/\|/g, '\\|')} |`);
  });
});
