/**
 * Runs after `tsc`: rewrites the hooks' entry files (and the other light paths) in dist/ in place, each with the small modules it
 * imports statically folded into it. Node's ESM loader reads, compiles and links every file on its
 * own, with several round trips through the thread pool per file; the SessionEnd hook reached eleven
 * files in three stages, and starts ~8 ms sooner from one. Nothing else changes: the
 * source keeps its small modules, dynamic `import()`s stay separate files loaded only on the branch
 * that needs them, node built-ins stay imports, and the bundles map back to src/ through their
 * source maps. Usage: node scripts/bundle-hooks.mjs [distDir]
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));

/**
 * The files a hook start loads: the hook runner (SessionEnd's handler included), then SessionStart's
 * handler; and the other light paths main.ts takes without the command-line program, whose time is
 * a target too: `recall endless fork` and the `recall serve` client of `search` and `list`. Each
 * folded file carries its own copy of the modules it shares with lazily loaded files (RecallError
 * is recognised across copies; see core/errors.ts).
 */
const HOOK_ENTRIES = ['hook/run-hook.js', 'hook/session-start.js', 'cli/commands/endless-fork-fast.js', 'serve/try-served.js'];

/** Dynamic imports stay lazy, separate files: external, with the path rewritten relative to the bundle. */
function keepDynamicImportsLazy(outDir) {
  return {
    name: 'keep-dynamic-imports-lazy',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = resolve(args.resolveDir, args.path);
        const path = relative(outDir, target).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/** A folded module from another folder must not use import.meta: its URL would become the bundle's. */
function refuseForeignImportMeta(outDir) {
  return {
    name: 'refuse-foreign-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (dirname(args.path) === outDir) return undefined;
        const { readFile } = await import('node:fs/promises');
        const contents = await readFile(args.path, 'utf8');
        if (contents.includes('import.meta')) {
          return { errors: [{ text: `${relative(dist, args.path)} uses import.meta and cannot be folded into ${relative(dist, outDir)}/` }] };
        }
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

for (const entry of HOOK_ENTRIES) {
  const file = join(dist, entry);
  if (!existsSync(file)) throw new Error(`bundle-hooks: ${file} is missing; run tsc first`);
  const outDir = dirname(file);
  await build({
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [keepDynamicImportsLazy(outDir), refuseForeignImportMeta(outDir)],
  });
}
