/**
 * The shape of src/ as ARCHITECTURE.md draws it: folders in layers, each importing only from layers
 * below it (types included), adapters and config on core alone, and no import circle between files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

/** Bottom first. A folder may import its own files and the folders of the layers before its own. */
const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['adapters', 'config'],
  ['redact', 'project', 'queue'],
  ['transcript', 'extract'],
  ['embed', 'store'],
  ['search', 'context'],
  ['serve-client', 'endless'],
  ['app'],
  ['install'],
  ['doctor'],
  ['worker', 'hook'],
  ['mcp', 'serve'],
  ['ui'],
  ['cli'],
];

interface SourceFile {
  path: string;
  folder: string;
  imports: string[];
}

function sourceFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(read(path));
    }
  };
  walk(SRC);
  return files;
}

/** Every relative import: static (types too), re-exports, side-effect and dynamic ones. */
function read(path: string): SourceFile {
  const code = readFileSync(path, 'utf8');
  const specs = [
    ...[...code.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    ...[...code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    ...[...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  const rel = relative(SRC, path);
  return {
    path: rel,
    folder: rel.split('/')[0]!,
    imports: specs.filter((s) => s.startsWith('.')).map((s) => relative(SRC, resolve(dirname(path), s.replace(/\.js$/, '.ts')))),
  };
}

const files = sourceFiles();
const layerOf = new Map(LAYERS.flatMap((folders, i) => folders.map((folder) => [folder, i] as const)));

describe('the folders of src/', () => {
  it('each sit in one layer', () => {
    const folders = [...new Set(files.map((f) => f.folder))].filter((folder) => !folder.endsWith('.ts'));
    expect(folders.filter((folder) => !layerOf.has(folder))).toEqual([]);
  });

  it('import only from the layers below their own', () => {
    const upward = files.flatMap((file) =>
      file.imports
        .filter((target) => target.split('/')[0] !== file.folder && !(layerOf.get(target.split('/')[0]!)! < layerOf.get(file.folder)!))
        .map((target) => `${file.path} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('put adapters on core alone', () => {
    const adapterImports = files.filter((f) => f.folder === 'adapters').flatMap((f) => f.imports.map((t) => t.split('/')[0]));
    expect(new Set(adapterImports.filter((folder) => folder !== 'adapters'))).toEqual(new Set(['core']));
  });
});

describe('the files of src/', () => {
  it('import each other without a circle', () => {
    const edges = new Map(files.map((f) => [f.path, f.imports]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (path: string, trail: string[]): void => {
      if (state.get(path) === 'done') return;
      if (state.get(path) === 'open') {
        circles.push([...trail.slice(trail.indexOf(path)), path].join(' -> '));
        return;
      }
      state.set(path, 'open');
      for (const next of edges.get(path) ?? []) visit(next, [...trail, path]);
      state.set(path, 'done');
    };
    for (const path of edges.keys()) visit(path, []);
    expect(circles).toEqual([]);
  });
});
