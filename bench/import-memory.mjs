// `recall import` into big stores: peak memory (RSS) and time of a 10-line and a 1,000-line import
// into stores of each SIZE, with the vector index (the worker's upkeep done) and without it (as a
// store filled by import alone was). Each import starts from a copy of the same store, so the
// 1,000-line one does not see the 10 lines or the upkeep the first started. Before the one-pass dedupe
// lookup, a 10-line import into an unindexed 100k store took 1.2 GB (and 2.35 GB at 107k rows of real
// memories); before writes stopped folding new rows into the text index, a 1,000-line import into an
// unindexed 1M store took 1,022 MB. Each row also says how long its store took to build and the load
// average (1 min) at each import. Rows of other sizes already in bench/results.json are kept, so a 1M
// store (minutes to build) can be measured on its own. The lines go to the store's own namespaces, so
// the dedupe lookups read the rows (into a namespace the store does not hold, they read none):
//   node bench/import-memory.mjs [sizes=1000,100000] [arms=unindexed,indexed]
//   node bench/import-memory.mjs 1000000 unindexed,indexed
// BENCH_IMPORT_STORES=<dir> keeps the built stores there (`<size>-<arm>`, with `bench-build.json`) and
// builds only the missing ones, so a second run skips the 15-minute 1M build; the stores themselves are
// never written to (each import gets a copy).
// Rows are marked `spread`; rows measured before the lines were spread (they read no stored vectors)
// are not kept. BENCH_IMPORT_LEAN_ALLOCATOR=1 starts each import with glibc's malloc settings the
// upkeep gets (src/app/lean-allocator.ts) and records its rows as `leanAllocatorRows` (docs/import-memory.md).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStoreInChild, cleanEnv, sleep } from './measure.mjs';
import { readResults, recordResult } from './results.mjs';

const sizes = (process.argv[2] ?? '1000,100000').split(',').map(Number);
const arms = (process.argv[3] ?? 'unindexed,indexed').split(',').map((arm) => arm === 'indexed');
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'recall-import-bench-'));
const kept = process.env.BENCH_IMPORT_STORES ?? null;
const lean = process.env.BENCH_IMPORT_LEAN_ALLOCATOR === '1';
/** As src/app/lean-allocator.ts (the bench runs on the built code, not the sources). */
const LEAN_ALLOCATOR = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576', MALLOC_TRIM_THRESHOLD_: '1048576' };
/** The target of issue 31: an import into any store takes "a few hundred MB" at most. */
export const TARGET_PEAK_MB = 500;

/**
 * Lines no store holds yet (made-up words), so every one is checked against the store and stored,
 * spread over the store's 20 project namespaces (build-store.mjs's benchNamespace): the lookups of a
 * 1,000-line import read every row of the store, as lines into a namespace that holds them all would.
 */
function lines(count, tag) {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po'];
  const word = (n) => Array.from({ length: 4 }, (_, k) => syllables[Math.floor(n / 10 ** k) % 10]).join('');
  return Array.from({ length: count }, (_, i) => JSON.stringify({
    content: `You MUST keep ${word(i * 7 + 1)} ${word(i * 13 + 3)} ${tag}${i} enabled.`,
    namespace: `project:bench${i % 20}-0000abcd`,
  })).join('\n');
}

/** Peak RSS (from /proc, sampled by GNU time) and wall time of one import, with the load average as it started. */
function measureImport(file, env) {
  const load = Math.round(loadavg()[0] * 10) / 10;
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, cli, 'import', file, '--json'], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`import exited ${result.status}: ${result.stderr.slice(-500)}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1]);
  const summary = JSON.parse(result.stdout);
  return { ms: Math.round(ms), peakMB: Math.round(kb / 1024), stored: summary.stored, duplicates: summary.duplicates, loadAverage: load };
}

/** Upkeep runs in the background after an import: wait for it, so it is not measured with the next one. */
async function waitForUpkeep(home) {
  const busy = () => existsSync(join(home, 'maintain.starting')) || existsSync(join(home, 'maintain.lock'));
  for (let i = 0; i < 7200 && busy(); i += 1) await sleep(250);
}

/** The store of `size` memories for an arm, built (or found in BENCH_IMPORT_STORES), and its build figures. */
function storeFor(size, indexed) {
  const home = join(kept ?? root, `${size}-${indexed ? 'indexed' : 'unindexed'}`);
  const figures = join(home, 'bench-build.json');
  if (existsSync(figures)) return { home, built: JSON.parse(readFileSync(figures, 'utf8')) };
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const built = buildStoreInChild(home, size, { maintain: indexed });
  writeFileSync(figures, JSON.stringify(built));
  return { home, built };
}

const rows = [];
try {
  for (const size of sizes) {
    for (const indexed of arms) {
      const { home: original, built } = storeFor(size, indexed);
      const row = { size, indexed, spread: true, vectorIndex: built.report?.vectorIndex ?? 'none', buildMs: Math.round(built.buildMs + (built.maintainMs ?? 0)) };
      for (const count of [10, 1000]) {
        const home = join(root, 'work');
        rmSync(home, { recursive: true, force: true });
        cpSync(original, home, { recursive: true });
        // The unindexed arm stays so: its upkeep may build the key indexes, never the vector index.
        const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', RECALL_HOOK_SPAWN: '0', RECALL_NO_SERVE: '1', LANCEDB_LOG: 'error', ...(indexed ? {} : { RECALL_VECTOR_INDEX_MIN_ROWS: '1000000000' }), ...(lean ? LEAN_ALLOCATOR : {}) });
        const file = join(root, `lines-${size}-${indexed}-${count}.jsonl`);
        writeFileSync(file, lines(count, `s${size}${indexed ? 'i' : 'u'}n${count}x`));
        row[`import${count}`] = measureImport(file, env);
        await waitForUpkeep(home);
        rmSync(home, { recursive: true, force: true });
      }
      row.met = Math.max(row.import10.peakMB, row.import1000.peakMB) <= TARGET_PEAK_MB;
      console.error(`  ${size} rows, ${indexed ? 'indexed' : 'unindexed'}: ${JSON.stringify(row)}`);
      rows.push(row);
      if (kept === null) rmSync(original, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(rows));
const measured = new Set(rows.map((r) => `${r.size}/${r.indexed}`));
const previous = readResults().importMemory ?? {};
const key = lean ? 'leanAllocatorRows' : 'rows';
// Rows measured with the lines in a namespace the store does not hold (no `spread`) measured no lookup: not kept.
const spreadOnly = (list) => (list ?? []).filter((r) => r.spread === true);
const before = spreadOnly(previous[key]).filter((r) => !measured.has(`${r.size}/${r.indexed}`));
recordResult('importMemory', {
  targetPeakMB: TARGET_PEAK_MB,
  lines: "spread over the store's 20 project namespaces: the dedupe lookups read every row of the store",
  rows: spreadOnly(previous.rows),
  leanAllocatorRows: spreadOnly(previous.leanAllocatorRows),
  [key]: [...before, ...rows].sort((a, b) => a.size - b.size || Number(a.indexed) - Number(b.indexed)),
});
