/**
 * What a module pulls in when it runs: the files it reaches through value imports and the packages
 * it names. Works on src (.ts, `import type` skipped) and on dist (.js). The hooks and the MCP
 * start path must stay light, and these walks are how the tests hold them to it.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface ImportClosure {
  files: string[];
  packages: string[];
}

/** `followDynamic`: also walk `import('...')`, which runs only on the branch that calls it. */
export function importClosure(entry: string, { followDynamic }: { followDynamic: boolean }): ImportClosure {
  const fromTs = entry.endsWith('.ts');
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of valueImports(readFileSync(file, 'utf8'), followDynamic)) {
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), fromTs ? spec.replace(/\.js$/, '.ts') : spec));
      else packages.add(spec);
    }
  }
  return { files: [...files], packages: [...packages] };
}

function valueImports(code: string, followDynamic: boolean): string[] {
  const specs: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]/gm)) if (!m[1]) specs.push(m[2]!);
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  if (followDynamic) for (const m of code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}
