// `recall import` into big stores: peak memory (RSS) and time of a 10-line and a 1,000-line import
// into stores of each SIZE, with the vector index (the worker's upkeep done) and without it (as a
// store filled by import alone was). Before the one-pass dedupe lookup, a 10-line import into an
// unindexed 100k store took 1.2 GB (and 2.35 GB at 107k rows of real memories). Each row also says how
// long its store took to build. Rows of other sizes already in bench/results.json are kept, so a 1M
// store (minutes to build) can be measured on its own:
//   node bench/import-memory.mjs [sizes=1000,100000] [arms=unindexed,indexed]
//   node bench/import-memory.mjs 1000000 unindexed
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStoreInChild, cleanEnv, sleep } from './measure.mjs';
import { readResults, recordResult } from './results.mjs';

const sizes = (process.argv[2] ?? '1000,100000').split(',').map(Number);
const arms = (process.argv[3] ?? 'unindexed,indexed').split(',').map((arm) => arm === 'indexed');
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'recall-import-bench-'));

/** Lines no store holds yet (made-up words), so every one is checked against the store and stored. */
function lines(count, tag) {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po'];
  const word = (n) => Array.from({ length: 4 }, (_, k) => syllables[Math.floor(n / 10 ** k) % 10]).join('');
  return Array.from({ length: count }, (_, i) => JSON.stringify({ content: `You MUST keep ${word(i * 7 + 1)} ${word(i * 13 + 3)} ${tag}${i} enabled.` })).join('\n');
}

/** Peak RSS (from /proc, sampled by GNU time when present) and wall time of one import. */
function measureImport(home, file, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, cli, 'import', file, '--json'], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`import exited ${result.status}: ${result.stderr.slice(-500)}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1]);
  const summary = JSON.parse(result.stdout);
  return { ms: Math.round(ms), peakMB: Math.round(kb / 1024), stored: summary.stored, duplicates: summary.duplicates };
}

/** Upkeep runs in the background after an import: wait for it, so it is not measured with the next one. */
async function waitForUpkeep(home) {
  for (let i = 0; i < 1200 && existsSync(join(home, 'maintain.starting')); i += 1) await sleep(250);
}

const rows = [];
try {
  for (const size of sizes) {
    for (const indexed of arms) {
      const home = join(root, `${size}-${indexed ? 'indexed' : 'unindexed'}`);
      const built = buildStoreInChild(home, size, { maintain: indexed });
      // The unindexed arm stays so: its upkeep may build the key indexes, never the vector index.
      const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', RECALL_HOOK_SPAWN: '0', RECALL_NO_SERVE: '1', LANCEDB_LOG: 'error', ...(indexed ? {} : { RECALL_VECTOR_INDEX_MIN_ROWS: '1000000000' }) });
      const row = { size, indexed, vectorIndex: built.report?.vectorIndex ?? 'none', buildMs: Math.round(built.buildMs + (built.maintainMs ?? 0)) };
      for (const count of [10, 1000]) {
        const file = join(root, `lines-${size}-${indexed}-${count}.jsonl`);
        writeFileSync(file, lines(count, `s${size}${indexed ? 'i' : 'u'}n${count}x`));
        row[`import${count}`] = measureImport(home, file, env);
        await waitForUpkeep(home);
      }
      console.error(`  ${size} rows, ${indexed ? 'indexed' : 'unindexed'}: ${JSON.stringify(row)}`);
      rows.push(row);
      rmSync(home, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(rows));
const measured = new Set(rows.map((r) => `${r.size}/${r.indexed}`));
const kept = (readResults().importMemory?.rows ?? []).filter((r) => !measured.has(`${r.size}/${r.indexed}`));
recordResult('importMemory', { rows: [...kept, ...rows].sort((a, b) => a.size - b.size || Number(a.indexed) - Number(b.indexed)) });
