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
 * user's command takes (the `recall serve` client of `search`/`list`, and `recall endless fork` from
 * its own .cjs) loaded only on their branch. Starting as CommonJS skips the ESM loader's start: a
 * served `recall search` or a fork then loads no ESM at all (measured: 4-7 ms of a served search,
 * 10 ms of a fork); everything heavier is still loaded by `import()` from the ESM files. Hooks, workers
 * and the MCP server keep main.js.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));

/**
 * The files a hook start loads: the hook runner (SessionEnd's handler included), then SessionStart's
 * or PostToolUse's handler (PostToolUse's folds Endless Mode's settings, payload parsing and model
 * client; the compression stays a separate file, loaded only when Endless Mode is on); and the other light paths main.ts takes without the command-line program, whose time is
 * a target too: `recall endless fork` and the `recall serve` client of `search` and `list`. Each
 * folded file carries its own copy of the modules it shares with lazily loaded files (RecallError
 * is recognised across copies; see core/errors.ts).
 */
const HOOK_ENTRIES = ['hook/run-hook.js', 'hook/session-start.js', 'hook/post-tool-use.js', 'cli/commands/endless-fork-fast.js', 'serve-client/try-served.js'];

/**
 * A dynamic import() of recall's own (in dist/) stays a lazy, separate file: external, with the path
 * rewritten relative to the bundle. One inside a package is folded like the rest.
 */
function keepDynamicImportsLazy(outDir) {
  return {
    name: 'keep-dynamic-imports-lazy',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== 'dynamic-import' || !args.resolveDir.startsWith(dist + sep)) return undefined;
        const target = resolve(args.resolveDir, args.path);
        const path = relative(outDir, target).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/**
 * A folded module from another folder must not use import.meta: its URL would become the bundle's. One
 * use is the same from any file in dist/: `createRequire(import.meta.url)`, for resolving a package (the
 * screen's confusables table), which resolves alike from the bundle's folder.
 */
function refuseForeignImportMeta(outDir) {
  return {
    name: 'refuse-foreign-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (dirname(args.path) === outDir) return undefined;
        const { readFile } = await import('node:fs/promises');
        const contents = await readFile(args.path, 'utf8');
        if (contents.replaceAll('createRequire(import.meta.url)', '').includes('import.meta')) {
          return { errors: [{ text: `${relative(dist, args.path)} uses import.meta and cannot be folded into ${relative(dist, outDir)}/` }] };
        }
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Rewrites dist/`entry` in place as one ESM file with what it imports statically; `options` adds to esbuild's. */
async function foldInPlace(entry, options = {}) {
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
    ...options,
  });
}

for (const entry of HOOK_ENTRIES) await foldInPlace(entry);

/**
 * The MCP server's start, dist/mcp/serve-mcp-command.js, rewritten in place as one ESM file with its
 * packages folded in too (the MCP SDK, zod, ajv): an agent asks for the tool list right after spawn, and
 * the loader reading ~950 small files (zod's locales, zod v3, zod-to-json-schema, ajv) cost more than half of
 * the time to that answer. The store, the embedder and the model client stay separate files, loaded by
 * the runtime's import()s on the first tool call that needs them. Packages that are CommonJS get a
 * require() made for the bundle's own URL.
 */
const MCP_ENTRY = 'mcp/serve-mcp-command.js';

await foldInPlace(MCP_ENTRY, {
  banner: { js: "import { createRequire as __recallCreateRequire } from 'node:module'; const require = __recallCreateRequire(import.meta.url);" },
});

/**
 * The `recall` bin's CommonJS files, each built from a file above: `fold` lists the light paths folded
 * in and evaluated only on their branch; `require` the ones loaded on their branch by a plain require()
 * of their own CommonJS build (the fork's 70 KB folded into main.cjs would cost every served search
 * ~2 ms of parsing; an import() of it would start the ESM loader again). Other import()s stay import()s.
 */
const COMMONJS_BUILDS = [
  { entry: 'cli/commands/endless-fork-fast.js', fold: [], require: [] },
  // The hooks' runner with the SessionEnd handler: `recall install` points the agents' hooks at the bin, so a
  // SessionEnd hook starts without the ESM loader (measured: ~5 ms of CPU per hook, a burst of fifty pays it fifty times).
  { entry: 'hook/run-hook.js', fold: [], require: [], importMetaUrl: true },
  // `recall mcp`'s front, which answers initialize and tools/list before the full server is loaded.
  { entry: 'mcp/serve-mcp-fast.js', fold: [], require: [], importMetaUrl: true },
  { entry: 'cli/main.js', fold: ['serve-client/try-served.js'], require: ['cli/commands/endless-fork-fast.js', 'hook/run-hook.js', 'mcp/serve-mcp-fast.js'] },
];

/** What `import.meta.url` becomes in a CommonJS build: the URL of the built file, set by the banner. */
const META_URL = '__recallImportMetaUrl';
const META_URL_BANNER = `var ${META_URL} = require('node:url').pathToFileURL(__filename).href;`;

/**
 * In CommonJS output import.meta is empty: refuse it rather than build a bin that breaks at run time. With
 * `keepUrl` (a build marked `importMetaUrl`), one use is kept: `import.meta.url` in a module of the built
 * file's own folder (the worker's entry, found relative to hook/spawn-worker.js), which means the same from
 * the built file; the build's banner defines it.
 */
function refuseImportMeta(outDir, keepUrl) {
  return {
    name: 'refuse-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const read = await readFile(args.path, 'utf8');
        const contents = keepUrl && dirname(args.path) === outDir ? read.replaceAll('import.meta.url', META_URL) : read;
        if (contents.includes('import.meta')) {
          return { errors: [{ text: `${relative(dist, args.path)} uses import.meta and cannot be built as CommonJS` }] };
        }
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

const asCommonJs = (file) => file.replace(/\.js$/, '.cjs');

/** Folds `fold`, turns an import() of a `require` file into a lazy require() of its .cjs, keeps other import()s. */
function commonJsImports(outDir, fold, required) {
  const local = (target) => {
    const path = relative(outDir, target).split(sep).join('/');
    return path.startsWith('.') ? path : `./${path}`;
  };
  return {
    name: 'commonjs-imports',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'require-call' && args.path.endsWith('.cjs')) return { path: args.path, external: true };
        if (args.kind !== 'dynamic-import') return undefined;
        const target = resolve(args.resolveDir, args.path);
        if (fold.has(target)) return undefined;
        if (required.has(target)) return { path: target, namespace: 'lazy-require' };
        return { path: local(target), external: true };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(local(asCommonJs(args.path)))});`,
        loader: 'js',
        resolveDir: outDir,
      }));
    },
  };
}

for (const { entry, fold, require: required, importMetaUrl = false } of COMMONJS_BUILDS) {
  const file = join(dist, entry);
  const outDir = dirname(file);
  await build({
    entryPoints: [file],
    outfile: asCommonJs(file),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    ...(importMetaUrl ? { banner: { js: META_URL_BANNER } } : {}),
    plugins: [
      commonJsImports(outDir, new Set(fold.map((f) => join(dist, f))), new Set(required.map((f) => join(dist, f)))),
      refuseImportMeta(outDir, importMetaUrl),
    ],
  });
}
