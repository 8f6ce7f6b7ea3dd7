/**
 * Runs after `tsc`: rewrites the hooks' entry files (and the other light paths) in dist/ in place, each with the small modules it
 * imports statically folded into it. Node's ESM loader reads, compiles and links every file on its
 * own, with several round trips through the thread pool per file; the SessionEnd hook reached eleven
 * files in three stages, and starts ~8 ms sooner from one. Nothing else changes: the
 * source keeps its small modules, dynamic `import()`s stay separate files loaded only on the branch
 * that needs them, node built-ins stay imports, and the bundles map back to src/ through their
 * source maps. Usage: node scripts/bundle-hooks.mjs [distDir]
 *
 * Then it writes the `recall` bin, dist/cli/main.cjs: main.js built as CommonJS, with the light paths a
 * user's command takes (the `recall serve` client of `search`/`list`, `recall endless fork`) folded in
 * and evaluated only on their branch. A CommonJS start skips the ESM loader's start, ~4 ms of every
 * command (more than that on a served `recall search`, which loads nothing else); everything heavier
 * is still loaded by `import()` from the ESM files. Hooks, workers and the MCP server keep main.js.
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

/** The light paths the `recall` bin folds in, evaluated on first use (esbuild wraps each in a lazy init). */
const BIN_INLINED = ['serve/try-served.js', 'cli/commands/endless-fork-fast.js'];

/** In CommonJS output import.meta is empty: refuse it rather than build a bin that breaks at run time. */
function refuseImportMeta() {
  return {
    name: 'refuse-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const contents = await readFile(args.path, 'utf8');
        if (contents.includes('import.meta')) {
          return { errors: [{ text: `${relative(dist, args.path)} uses import.meta and cannot be folded into the CommonJS bin` }] };
        }
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

const binEntry = join(dist, 'cli/main.js');
const binDir = dirname(binEntry);
const inlined = new Set(BIN_INLINED.map((file) => join(dist, file)));
await build({
  entryPoints: [binEntry],
  outfile: join(binDir, 'main.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'fold-light-paths',
      setup(b) {
        b.onResolve({ filter: /^\./ }, (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          const target = resolve(args.resolveDir, args.path);
          if (inlined.has(target)) return undefined;
          const path = relative(binDir, target).split(sep).join('/');
          return { path: path.startsWith('.') ? path : `./${path}`, external: true };
        });
      },
    },
    refuseImportMeta(),
  ],
});
