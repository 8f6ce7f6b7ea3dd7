/** Endless Mode sits below the hooks: the PostToolUse hook imports endless/, never the other way round. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENDLESS = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src/endless');

/** Every `from '...'` and `import('...')` specifier of every file, as `file -> specifier`. */
function endlessImports(): string[] {
  const found: string[] = [];
  for (const name of readdirSync(ENDLESS).filter((n) => n.endsWith('.ts'))) {
    const code = readFileSync(join(ENDLESS, name), 'utf8');
    for (const m of code.matchAll(/(?:from\s*|import\(\s*)['"]([^'"]+)['"]/g)) found.push(`${name} -> ${m[1]!}`);
  }
  return found;
}

describe('the endless folder', () => {
  it('imports nothing from hook/', () => {
    const imports = endlessImports();
    expect(imports.length).toBeGreaterThan(20);
    expect(imports.filter((i) => /-> \.\.\/hook\//.test(i))).toEqual([]);
  });

  it('imports nothing from worker/ when it loads', () => {
    const code = readdirSync(ENDLESS).filter((n) => n.endsWith('.ts')).map((n) => readFileSync(join(ENDLESS, n), 'utf8'));
    expect(code.filter((c) => /from\s*['"]\.\.\/worker\//.test(c))).toEqual([]);
  });
});
