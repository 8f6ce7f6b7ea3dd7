// `npm run bench`: every benchmark in turn, each as its own child process (its output streams through),
// then one table of the figures they recorded in bench/results.json (what | figure | target | met),
// with the machine and the date. Builds nothing itself: the npm script runs `npm run build` first.
//
// Usage: node bench/run-all.mjs [--quick] [--only key,key] [--table] [--readme]
//   --quick (or BENCH_QUICK=1): fewer runs and smaller stores, to check the runner end to end in a few
//           minutes; figures go to bench/results.local.json (git-ignored), never to bench/results.json,
//           and the retrieval test does not rewrite bench/retrieval-results.json.
//   --only:  run just these benchmarks (keys as in the list below), then print the whole table.
//   --table: run nothing; print the table from the results file.
//   --readme: with --table, write the short table into README.md and the full one into docs/benchmarks.md,
//           between their bench-table markers, instead of printing (a test holds both to bench/results.json).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const quick = args.includes('--quick') || /^(1|true|yes)$/i.test(process.env.BENCH_QUICK ?? '');
const tableOnly = args.includes('--table');
const toReadme = args.includes('--readme');
if (toReadme && !tableOnly) {
  console.error('--readme writes the recorded table: use it with --table');
  process.exit(2);
}
const onlyArg = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const only = onlyArg ? new Set(onlyArg.split(',')) : null;

const repo = fileURLToPath(new URL('..', import.meta.url));
const resultsFile =
  process.env.BENCH_RESULTS_FILE ?? fileURLToPath(new URL(quick ? './results.local.json' : './results.json', import.meta.url));
const retrievalFile = fileURLToPath(new URL('./retrieval-results.json', import.meta.url));
// Set before results.mjs loads, so machineLine() and readResults() below see the same file the children write.
process.env.BENCH_RESULTS_FILE = resultsFile;
const { machineLine, readResults } = await import('./results.mjs');

/**
 * Each benchmark: the key it records under, the command, and the arguments of a quick run (full runs
 * use each script's own defaults). Latency-sensitive ones first, before the big stores heat the machine.
 */
const BENCHMARKS = [
  { key: 'sessionEndHook', script: 'hook-overhead.mjs', quick: ['5'] },
  { key: 'sessionStartHook', script: 'session-start-overhead.mjs', quick: ['5'] },
  { key: 'sessionEndBurst', script: 'session-end-burst.mjs', quick: ['20'] },
  { key: 'endlessHook', script: 'endless-hook-overhead.mjs', quick: ['3'] },
  { key: 'captureNoModel', script: 'capture-no-model.mjs', quick: ['3'] },
  { key: 'redactionVsSecretlint', script: 'redaction-vs-secretlint.mjs', quick: ['3', '2'] },
  { key: 'promptQuality', script: 'memory-quality.mjs', quick: [] },
  { key: 'stanceLabels', script: 'stance-labels.mjs', quick: [] },
  { key: 'embedThroughput', script: 'embed-throughput.mjs', quick: ['5'] },
  { key: 'dedupeStore', script: 'dedupe-store.mjs', quick: ['2', '1000'] },
  { key: 'supersedeDecisions', script: 'supersede-decisions.mjs', quick: [] },
  { key: 'judgementPairs', script: 'judgement-pairs.mjs', quick: [] },
  { key: 'screen', script: 'screen.mjs', quick: ['2'] },
  { key: 'importReplacements', script: 'import-replacements.mjs', quick: ['2000', '50'] },
  { key: 'danglingVersions', script: 'dangling-versions.mjs', quick: ['2000', '10'] },
  { key: 'searchCold', script: 'search-cold.mjs', quick: ['3', '1000'] },
  { key: 'searchScale', script: 'search-scale.mjs', quick: ['2', '1000'] },
  { key: 'searchWarm', script: 'search-warm.mjs', quick: ['3', '1000'] },
  { key: 'importMemory', script: 'import-memory.mjs', quick: ['1000'] },
  { key: 'serveSteady', script: 'serve-steady.mjs', quick: ['500', '1000'] },
  { key: 'vectorIndex', script: 'vector-index.mjs', quick: ['20000', '20'] },
  { key: 'mcpFirstList', script: 'mcp-first-list.mjs', quick: ['15'] },
  { key: 'mcpLatency', script: 'mcp-latency.mjs', quick: ['2', '200', '3'] },
  { key: 'uiFirstPage', script: 'ui-first-page.mjs', quick: ['3', '200,1000'] },
  { key: 'endlessFork', script: 'endless-fork.mjs', quick: ['2'] },
  { key: 'endlessCompression', script: 'endless-compression.mjs', quick: [] },
  {
    key: 'retrieval',
    command: [fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', 'test/integration/retrieval.test.ts'],
    // Writes bench/retrieval-results.json; a quick run only checks the figures.
    env: quick ? {} : { RECALL_WRITE_RESULTS: '1' },
  },
  {
    key: 'retrievalSet',
    command: [fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', 'test/integration/retrieval-set.test.ts'],
    // Records under `retrievalSet` in the results file; a quick run only checks the figures.
    env: quick ? {} : { RECALL_WRITE_RESULTS: '1' },
  },
];

const startedAt = new Date();
/** key -> { exitCode, seconds } for what this run started. */
const ran = new Map();

/** Runs one benchmark as a child process with its output streaming through; resolves its exit code. */
function run(argv, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (err) => {
      console.error(`cannot start ${argv.join(' ')}: ${err.message}`);
      resolve(-1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
  });
}

function printTable() {
  const results = readResults(resultsFile);
  const retrieval = readRetrieval();
  const rows = [];
  const summary = [];
  for (const bench of BENCHMARKS) {
    const entry = bench.key === 'retrieval' ? retrieval : results[bench.key];
    const status = ran.get(bench.key);
    const fresh = entry && Date.parse(entry.measuredAt) >= startedAt.getTime();
    const note = !entry || fresh || tableOnly ? null : `earlier run, ${String(entry.measuredAt).slice(0, 10)}`;
    let built;
    try {
      built = entry ? ROWS[bench.key](entry) : [];
    } catch (err) {
      built = [{ what: bench.key, figure: `? (result not understood: ${err.message})` }];
    }
    if (status && status.exitCode !== 0) rows.push({ what: bench.key, figure: `benchmark failed (exit ${status.exitCode})`, target: '', met: 'failed' });
    if (!entry && !(status && status.exitCode !== 0)) rows.push({ what: bench.key, figure: 'not measured', target: '', met: '' });
    for (const row of built) rows.push({ target: '', met: '', ...row, figure: note ? `${row.figure} (${note})` : row.figure });
    rows.push(...(GAPS[bench.key]?.(entry) ?? []));
    if (SUMMARY[bench.key]) {
      try {
        summary.push(...(entry ? SUMMARY[bench.key](entry) : [{ what: bench.key, figure: 'not measured', target: '', met: '' }]));
      } catch (err) {
        summary.push({ what: bench.key, figure: `? (result not understood: ${err.message})`, target: '', met: '' });
      }
    }
  }
  if (toReadme) {
    writeTables(rows, summary, results, retrieval);
    return;
  }
  const machines = new Set([...Object.values(results), retrieval].flatMap((e) => (e?.machine ? [e.machine] : [])));
  console.log(`\n## Benchmarks${quick ? ' (QUICK MODE: fewer runs, small stores; not figures to record)' : ''}\n`);
  console.log(`Machine: ${machineLine()}`);
  for (const other of machines) if (other !== machineLine()) console.log(`  (some figures were recorded on: ${other})`);
  console.log(`Date: ${startedAt.toISOString().slice(0, 10)}${tableOnly ? ' (table printed; nothing run)' : ''}; figures from ${resultsFile.replace(repo, '')}\n`);
  console.log(markdownTable(['what', 'figure', 'target', 'met'], rows.map((r) => [r.what, r.figure, r.target, r.met])));
}

/**
 * The tables written into the docs, between `<!-- bench-table:start -->` and `<!-- bench-table:end -->`:
 * the short table (headline rows) into README.md, the full table into docs/benchmarks.md, each followed
 * by the machines the figures were recorded on and the span of dates they were recorded in.
 */
function writeTables(rows, summary, results, retrieval) {
  const recorded = [...Object.values(results), retrieval].filter((e) => e && typeof e === 'object');
  const machines = [...new Set(recorded.flatMap((e) => (e.machine ? [e.machine] : [])))];
  const dates = recorded.flatMap((e) => (typeof e.measuredAt === 'string' ? [e.measuredAt.slice(0, 10)] : [])).sort();
  const span = dates.length === 0 ? '' : dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`;
  const footer = `Recorded in \`bench/results.json\`${span ? ` (${span})` : ''} on: ${machines.join('; ') || 'unknown'}.\n`;
  const readme = process.env.BENCH_README_FILE ?? fileURLToPath(new URL('../README.md', import.meta.url));
  const full = process.env.BENCH_DOCS_FILE ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
  writeBetweenMarkers(readme, `${unpaddedTable(summary)}\n\n${footer}`);
  writeBetweenMarkers(full, `${unpaddedTable(rows)}\n\n${footer}`);
}

/** A markdown table without padding: the docs are read rendered, and padding would double their size. */
function unpaddedTable(rows) {
  const cells = [['what', 'figure', 'target', 'met'], ['---', '---', '---', '---'], ...rows.map((r) => [r.what, r.figure, r.target, r.met])];
  return cells.map((row) => `| ${row.map((c) => String(c ?? '').replace(/\|/g, '\\|')).join(' | ')} |`).join('\n');
}

function writeBetweenMarkers(file, table) {
  const text = readFileSync(file, 'utf8');
  const marked = /(<!-- bench-table:start -->\n)[\s\S]*?(<!-- bench-table:end -->)/;
  if (!marked.test(text)) throw new Error(`${file} has no bench-table markers`);
  writeFileSync(file, text.replace(marked, (_all, start, end) => `${start}${table}${end}`));
}

function readRetrieval() {
  if (!existsSync(retrievalFile)) return null;
  try {
    const record = JSON.parse(readFileSync(retrievalFile, 'utf8'));
    return { ...record, measuredAt: record.measuredAt ?? statSync(retrievalFile).mtime.toISOString() };
  } catch {
    return null;
  }
}

/** The pages of `recall ui` as the table names them (bench/ui-first-page.mjs). */
const UI_PAGE_NAMES = {
  memories: 'list', search: 'search', memory: 'memory', confirmForget: 'confirm forget', review: 'review',
  reviewFiltered: 'review by project', reviewPage2: 'review page 2', nextSession: 'next session', sessions: 'jobs',
  endless: 'Endless', health: 'health', lastPage: 'last list page',
};

function met(ok) {
  return ok ? 'yes' : 'NO';
}

const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US', { maximumFractionDigits: 1 }) : String(n));
const size = (n) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n));

/** Table rows per benchmark, from its recorded figures. */
const ROWS = {
  sessionEndBurst: (r) => {
    // Rows of the hook under test (this build); the bare `node -e 0` arm of the same size and stdin is the floor.
    const floor = (x) => r.rows.find((b) => b.arm?.startsWith('bare') && b.hooks === x.hooks && b.stdin === x.stdin);
    return r.rows.filter((x) => x.arm === undefined || x.arm === 'this build hook').map((x) => {
      const bare = floor(x);
      const vsFloor = bare ? ` (${fmt(bare.returnMs.median)} ms for as many bare \`node -e 0\`)` : '';
      return { what: `${x.hooks} SessionEnd hooks at once, stdin from ${x.stdin}s: each hook's return`, figure: `median ${fmt(x.returnMs.median)} ms${vsFloor}, p95 ${fmt(x.returnMs.p95)}, max ${fmt(x.returnMs.max)}; ${x.queued}/${x.hooks} queued, ${x.workers} worker(s)`, target: 'all queued, 1 worker', met: met(x.queued === x.hooks && x.workers <= 1) };
    });
  },
  importMemory: (r) => {
    const target = r.targetPeakMB ?? 500;
    const arm = (indexed) => (indexed ? 'indexed' : 'no vector index');
    const load = (x) => (x.loadAverage === undefined ? '' : `, load ${fmt(x.loadAverage)}`);
    return [1_000, 100_000, 1_000_000].flatMap((size) => [false, true].map((indexed) => {
      const x = r.rows.find((row) => row.size === size && row.indexed === indexed);
      const over = x?.spread === true ? ", lines over the store's namespaces (lookups read every row)" : '';
      const what = `Import into ${fmt(size)} memories, ${arm(indexed)}${over}: peak RSS and time, 10 lines / 1,000 lines`;
      if (x === undefined) return { what, figure: 'not measured', target: `<= ${target} MB`, met: 'not measured' };
      return {
        what,
        figure: `${fmt(x.import10.peakMB)} MB, ${fmt(x.import10.ms)} ms${load(x.import10)} / ${fmt(x.import1000.peakMB)} MB, ${fmt(x.import1000.ms)} ms${load(x.import1000)}`,
        target: `<= ${target} MB`,
        met: met(Math.max(x.import10.peakMB, x.import1000.peakMB) <= target),
      };
    })).concat((r.leanAllocatorRows ?? []).map((x) => ({
      what: `Import into ${fmt(x.size)} memories, ${arm(x.indexed)}, lines over the store's namespaces, started with MALLOC_ARENA_MAX=2 and 1 MiB mmap/trim thresholds: 10 lines / 1,000 lines`,
      figure: `${fmt(x.import10.peakMB)} MB, ${fmt(x.import10.ms)} ms${load(x.import10)} / ${fmt(x.import1000.peakMB)} MB, ${fmt(x.import1000.ms)} ms${load(x.import1000)}`,
      target: `<= ${target} MB`,
      met: met(Math.max(x.import10.peakMB, x.import1000.peakMB) <= target),
    })));
  },
  serveSteady: (r) => [{ what: `recall serve over ${fmt(r.searches)} searches at ${fmt(r.size)} memories: threads, RSS (daemon and store host)`, figure: `threads ${r.threads.first} -> ${r.threads.last} (max ${r.threads.max}; host cap ${r.hostThreadCap ?? '-'}, ${r.run?.hostReplacements ?? 0} replacements), second half ${r.secondHalfThreadGrowth >= 0 ? "+" : ""}${r.secondHalfThreadGrowth}; RSS ${r.rssMB.first} -> ${r.rssMB.last} MB (max ${r.rssMB.max}); ${r.msPerSearch} ms a search`, target: 'flat in the second half', met: met(r.secondHalfThreadGrowth <= 2 && r.failed === 0) }],
  sessionEndHook: (r) => [{ what: 'SessionEnd hook over bare `node -e 0` (worker spawn included)', figure: `+${fmt(r.overheadMs)} ms (hook ${fmt(r.hookMedianMs)}, bare ${fmt(r.bareNodeMedianMs)}; median of ${r.runs})`, target: '<= +30 ms', met: met(r.overheadMs <= 30) }],
  sessionStartHook: (r) => [{ what: `SessionStart hook over bare node (${fmt(r.contextChars)}-char context)`, figure: `+${fmt(r.overheadMs)} ms (hook ${fmt(r.hookMedianMs)}, bare ${fmt(r.bareNodeMedianMs)}; median of ${r.runs})`, target: '<= +30 ms', met: met(r.overheadMs <= 30) }],
  endlessHook: (r) => [
    { what: 'PostToolUse hook, Endless Mode off, over bare node', figure: `+${fmt(r.offOverheadMs)} ms` },
    { what: 'PostToolUse hook, on: own cost beyond the model call', figure: `${fmt(r.onOverheadBeyondModelMs)} ms (${fmt(r.onMedianMs)} total, model ${fmt(r.modelCallMedianMs)})`, target: '< 100 ms', met: met(r.onOverheadBeyondModelMs < 100) },
    { what: 'PostToolUse hook, on, Ollama down (reduction)', figure: `${fmt(r.ollamaDownMedianMs)} ms`, target: '< 1 s', met: met(r.ollamaDownMedianMs < 1000) },
  ],
  captureNoModel: (r) => [{ what: `Capture without the model, ${fmt(r.transcriptBytes / 2 ** 20)} MB transcript`, figure: `${fmt(r.medianMs)} ms (median of ${r.runs}${r.medianCpuMs === undefined ? '' : `; CPU ${fmt(r.medianCpuMs)} ms, load average ${fmt(r.loadAverage)}`})`, target: `< ${r.targetMs} ms`, met: met(r.medianMs < r.targetMs) }],
  redactionVsSecretlint: (r) => [
    { what: `Redaction throughput, ${fmt(r.textBytes / 1e6)} MB transcript text: recall vs secretlint (recommended preset)`, figure: `${fmt(r.recall.mbPerS)} vs ${fmt(r.secretlint.mbPerS)} MB/s (CPU time, median of ${r.runs})`, target: '>= secretlint', met: met(r.recall.mbPerS >= r.secretlint.mbPerS) },
    ...Object.entries(r.corpus).map(([name, s]) => ({
      what: `Redaction corpus (${name}): secrets caught, look-alikes changed: recall vs secretlint`,
      figure: `${s.recall.caught}/${s.secrets} vs ${s.secretlint.caught}/${s.secrets}; ${s.recall.lookalikesChanged}/${s.lookalikes} vs ${s.secretlint.lookalikesChanged}/${s.lookalikes}`,
      ...(name === 'tuning' ? { target: 'look-alikes <= 2%', met: met(s.recall.lookalikesChanged <= s.lookalikes * 0.02) } : {}),
    })),
  ],
  promptQuality: (r) => {
    const before = readResults()['promptQuality_head-tail'];
    const was = (figure) => (before ? `; head/tail cut before: ${figure(before)}` : '');
    const interactive = (x) => x.sessions.filter((s) => s.interactive).map((s) => `${s.reached}/${s.typedMessages}`).join(', ');
    return [
      { what: 'Typed user messages that reach the extraction prompt, worst interactive session', figure: `${pct(r.worstInteractiveShare)} (${interactive(r)})${was((x) => `${pct(x.worstInteractiveShare)} (${interactive(x)})`)}`, target: '>= 90%', met: met(r.worstInteractiveShare >= r.target) },
      { what: 'Prompt share of tool output, largest over the sessions', figure: `${pct(r.maxToolOutputShare)}${was((x) => pct(x.maxToolOutputShare))}` },
      ...(r.worstConclusionKeptShare === undefined
        ? []
        : [{ what: "The session's last assistant message kept in the prompt, worst session", figure: `${pct(r.worstConclusionKeptShare)}${r.baselineWorstConclusionKeptShare === undefined ? '' : ` (before issue 32: ${pct(r.baselineWorstConclusionKeptShare)})`}`, target: '100%', met: met(r.worstConclusionKeptShare >= 1) }]),
      ...(r.sessions?.[0]?.composition === undefined
        ? []
        : [{ what: 'Left-out markers / FAILED labels per prompt, long sessions', figure: r.sessions.filter((s) => s.promptChars > 6000).map((s) => `${s.session.slice(0, 12)} ${s.composition.markers} / ${s.composition.failedLabels}${s.baseline ? ` (was ${s.baseline.markers} / ${s.baseline.failedLabels})` : ''}`).join('; ') }]),
    ];
  },
  stanceLabels: (r) =>
    [['development', r.development], ['held-out', r.heldOut]].map(([name, set]) => ({
      what: `Stance labels, precision / recall, ${name} set (${set.messages} hand-labelled real user messages)`,
      figure: ['agrees', 'corrects', 'decides', 'asks'].map((l) => `${l} ${pct(set.recall.byLabel[l].precision ?? 0)} / ${pct(set.recall.byLabel[l].recall ?? 0)}`).join('; '),
    })),
  embedThroughput: (r) => [{ what: 'Embedding throughput, batches of 32', figure: r.rows.map((x) => `${x.embedder.replace(/^transformers:.*$/, 'tiny transformers')} ${fmt(x.sentencesPerS)}/s`).join('; ') }],
  dedupeStore: (r) => [{ what: `Dedupe + store of ${r.perCapture} memories`, figure: r.rows.map((x) => `into ${size(x.memories)}${x.vectorIndex === 'built' ? ' (indexed)' : ''}: ${fmt(x.medianMs)} ms`).join('; ') }],
  supersedeDecisions: (r) => [
    { what: `Supersede decisions, hash embedder, no model: main set (${r.main.pairs} pairs)`, figure: `${pct(r.main.accuracy)} (${Object.entries(r.main.byKind).map(([kind, k]) => `${kind} ${pct(k.accuracy)}`).join(', ')})`, target: '>= 95%', met: met(r.main.accuracy >= 0.95) },
    { what: `Supersede decisions, hash embedder, no model: held-out set (${r.heldOut.pairs} pairs)`, figure: `${pct(r.heldOut.accuracy)} (${Object.entries(r.heldOut.byKind).map(([kind, k]) => `${kind} ${pct(k.accuracy)}`).join(', ')})` },
  ],
  judgementPairs: (r) =>
    ['noModel', 'model'].flatMap((arm) =>
      ['', 'heldOut_'].flatMap((set) =>
        ['add', 'capture', 'batch'].filter((path) => r[arm][`${set}${path}`] !== undefined).map((path) => {
          const x = r[arm][`${set}${path}`];
          return {
            what: `Judgement pairs${set === '' ? '' : ', held-out set'} (${set === '' ? r.pairs : r.heldOutPairs}) through ${path === 'add' ? '`recall add`' : path === 'capture' ? 'two captures' : 'one capture'}, ${arm === 'model' ? 'judge double answering right' : 'no model'}`,
            figure: `${pct(x.accuracy)} right, ${x.hiddenWrongly} hidden wrongly, ${x.changesMissed} changes missed, ${x.modelCalls} model calls`,
            target: '0 hidden wrongly',
            met: met(x.hiddenWrongly === 0),
          };
        }),
      ),
    ),
  screen: (r) => [
    { what: `Write-time screen: attacks held (${r.attacks} texts, ${Object.keys(r.byShape).length} shapes and disguises)`, figure: `${r.attacksHeld}/${r.attacks} (${pct(r.attackShare)})`, target: '>= 95%', met: met(r.attackShare >= 0.95) },
    { what: `Write-time screen: real CLAUDE.md / AGENTS.md / .cursorrules rules held (${r.benign} rules)`, figure: `${r.benignHeld}/${r.benign} (${pct(r.benignShare)})`, target: '<= 1%', met: met(r.benignShare <= 0.01) },
    { what: 'Write-time screen: cost per memory', figure: `${fmt(r.screenMicrosPerMemory)} us (hash embedder on the same texts ${fmt(r.hashEmbedMicrosPerMemory)} us)` },
  ],
  importReplacements: (r) => [
    { what: `\`recall import\` of ${r.lines} lines into ${size(r.stored)} stored rules: replaced (stored rules the user's / imports)`, figure: `${r.storedByUser.replaced} / ${r.storedByImport.replaced} (${r.storedByUser.proposed} / ${r.storedByImport.proposed} held as proposed changes)` },
  ],
  danglingVersions: (r) => [
    { what: `Memories replaced by a deleted memory, found and made current at ${size(r.memories)} (${r.dangling} of them)`, figure: `check ${fmt(r.danglingCheckMs)} ms (the upkeep-due check beside it ${fmt(r.upkeepDueCheckMs)} ms); relink ${fmt(r.relinkMs)} ms; ${r.after} left` },
  ],
  searchCold: (r) => [{ what: '`recall search` cold (new process), hybrid', figure: r.rows.map((x) => `${size(x.memories)}: ${fmt(x.hybrid)} ms`).join('; ') }],
  searchScale: (r) =>
    r.rows.map((x) => ({
      what: `\`recall search\` cold at ${size(x.memories)}, maintained store (index: ${x.vectorIndex})`,
      figure: `${fmt(x.hybrid)} ms hybrid; top-1 = exact on ${x.top1SameAsFlat}`,
      ...(x.memories >= 1_000_000 ? { target: '< 1.5 s', met: met(x.hybrid < 1500) } : {}),
    })),
  searchWarm: (r) =>
    r.rows.map((x) => ({
      what: `\`recall search\` warm through \`recall serve\` at ${size(x.memories)}`,
      figure: `${fmt(x.warmMs)} ms (in-process ${fmt(x.coldMs)}, bare node ${fmt(x.bareNodeMs)})`,
      target: '< 40 ms', met: met(x.warmMs < 40),
    })),
  vectorIndex: (r) => [{
    what: `Vector index at ${size(r.memories)}: \`recall search --mode vector\` against an exact search, ${r.queries} queries`,
    figure: r.rows.map((x) => `${x.kind === 'ivfRq' ? 'IVF-RQ (used)' : 'IVF-PQ (before)'}: same top ${r.top} ${x.sameTop10}/${r.queries}, ${fmt(x.top10InCommonPct)}% in common, ${fmt(x.searchMedianMs)} ms, built in ${fmt(x.buildS)} s`).join('; '),
  }],
  mcpFirstList: (r) => [{ what: '`recall mcp`: spawn to the `tools/list` answer', figure: `${fmt(r.firstListMedianMs)} ms (bare node ${fmt(r.bareNodeMedianMs)}; median of ${r.runs})`, target: `<= ${r.targetMs} ms`, met: met(r.firstListMedianMs <= r.targetMs) }],
  mcpLatency: (r) => [{ what: `\`memory_search\` through \`recall mcp\`, warm call, ${size(r.memories)} memories`, figure: r.rows.map((x) => `${x.embedder} ${fmt(x.warmCallMs)} ms (start ${fmt(x.startMs)}, first call ${fmt(x.firstCallMs)})`).join('; ') }],
  uiFirstPage: (r) => (r.sizes ?? []).map((m) => ({
    what: `\`recall ui\`: every page, ${size(m.memories)} memories (${m.held} held)`,
    figure: m.pages
      ? `first request / warm, ms: ${Object.entries(UI_PAGE_NAMES).filter(([k]) => m.pages[k]).map(([k, name]) => `${name} ${fmt(m.pages[k].firstMedianMs)} / ${fmt(m.pages[k].warmMedianMs)}`).join(', ')}${m.afterWrite ? `; list after a write elsewhere (totals counted at start) ${fmt(m.afterWrite.memoriesFirstMedianMs)}` : ''} (median of ${r.runs} starts per page)`
      : `first page ${fmt(m.firstPageMedianMs)} ms; slowest warm page ${m.slowestPage.page} ${fmt(m.slowestPage.ms)} ms (median of ${r.runs})`,
    target: `< ${r.targetMs} ms`,
    met: met(m.met),
  })),
  endlessFork: (r) => [
    // The target is the command a user runs: a whole `recall endless fork` process.
    { what: `\`recall endless fork\`, ${fmt(r.toolUses)} tool uses, whole command, observations stored`, figure: `${fmt(r.cliWarmMedianMs)} ms (in-process ${fmt(r.inProcessWarmMedianMs)}; first fork ${fmt(r.inProcessColdMedianMs)})`, target: '< 200 ms', met: met(r.cliWarmMedianMs < 200) },
  ],
  endlessCompression: (r) => {
    const obs = r.arms.observations;
    return [
      { what: `Endless savings on compressed tool results (${r.transcripts} real transcripts)`, figure: `-${fmt(obs.replaced.reduction)}%`, target: '>= 85%', met: met(obs.replaced.reduction >= 85) },
      // A session is what `claude --resume` loads: the main transcripts, not the subagents/ ones.
      { what: `Endless savings on the whole conversation, ${r.resumableSessions} resumable sessions (all ${r.transcripts} files incl. subagent transcripts: -${fmt(obs.conversation.reduction)}%)`, figure: `-${fmt(obs.resumable.conversation.reduction)}%`, target: '>= 50%', met: met(obs.resumable.conversation.reduction >= 50) },
      // What `claude --resume` actually loads of them: the chain after the last compaction.
      ...(obs.resumable.onResume ? [{ what: `Endless savings on what \`claude --resume\` loads, ${r.resumableSessions} resumable sessions`, figure: `-${fmt(obs.resumable.onResume.reduction)}%` }] : []),
    ];
  },
  retrievalSet: (r) => Object.entries(r.arms).map(([arm, f]) => ({
    what: `Search on the generated set (${fmt(r.memories)} memories, ${r.questions} questions, ${r.embedder}): ${arm === 'plainBm25' ? 'plain stemmed BM25 (baseline)' : arm}`,
    figure: `R@1 ${f.r1}, R@5 ${f.r5}, R@10 ${f.r10}, MRR ${f.mrr}`,
    ...(arm === 'hybrid' ? { target: '>= vector and text', met: met(['r1', 'r5', 'r10', 'mrr'].every((m) => f[m] >= Math.max(r.arms.vector[m], r.arms.text[m]))) } : {}),
  })),
  retrieval: (r) => [{ what: `Search hit@3 on the labelled set (${r.queries.all} queries)`, figure: Object.entries(r.embedders).map(([name, arms]) => `${name}: vector ${arms.vector.all}, text ${arms.text.all}, hybrid ${arms.hybrid.all}`).join('; ') }],
};

/**
 * The README's short table: one row per headline figure, made from the same recorded results as the full
 * table (docs/benchmarks.md). A benchmark not named here has no row in the README; its figures stay in the
 * full table. A row is met only when every row of the full table it stands for is met.
 */
const allMet = (rows) => (rows.some((r) => r.met === 'NO') ? 'NO' : rows.some((r) => r.met === 'yes') ? 'yes' : '');
const range = (values) => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? fmt(lo) : `${fmt(lo)}-${fmt(hi)}`;
};
const SUMMARY = {
  sessionEndHook: (r) => ROWS.sessionEndHook(r),
  sessionStartHook: (r) => ROWS.sessionStartHook(r),
  sessionEndBurst: (r) => {
    const hooks = r.rows.filter((x) => (x.arm === undefined || x.arm === 'this build hook') && x.stdin === 'pipe');
    const floor = (x) => r.rows.find((b) => b.arm?.startsWith('bare') && b.hooks === x.hooks && b.stdin === x.stdin);
    return [{
      what: 'SessionEnd hooks started at once (stdin from pipes): median return',
      figure: hooks.map((x) => `${x.hooks}: ${fmt(x.returnMs.median)} ms${floor(x) ? ` (bare node ${fmt(floor(x).returnMs.median)})` : ''}`).join('; ') +
        `; ${hooks.every((x) => x.queued === x.hooks) ? 'every job queued' : 'jobs LOST'}, ${Math.max(...hooks.map((x) => x.workers))} worker`,
      target: 'all queued, 1 worker',
      met: allMet(ROWS.sessionEndBurst(r)),
    }];
  },
  endlessHook: (r) => [{
    what: 'PostToolUse hook (Endless Mode): off over bare node / on, own cost / on, Ollama down',
    figure: `+${fmt(r.offOverheadMs)} / ${fmt(r.onOverheadBeyondModelMs)} / ${fmt(r.ollamaDownMedianMs)} ms`,
    target: 'on < 100 ms, down < 1 s',
    met: allMet(ROWS.endlessHook(r)),
  }],
  captureNoModel: (r) => ROWS.captureNoModel(r),
  redactionVsSecretlint: (r) => {
    const c = (name) => r.corpus[name];
    return [{
      what: 'Secret redaction: recall vs secretlint (speed; secrets caught, corpus and held-out; look-alikes changed)',
      figure: `${fmt(r.recall.mbPerS)} vs ${fmt(r.secretlint.mbPerS)} MB/s; ` +
        ['tuning', 'heldOut'].filter((n) => c(n)).map((n) => `${c(n).recall.caught}/${c(n).secrets} vs ${c(n).secretlint.caught}/${c(n).secrets}`).join(', ') +
        `; ${c('tuning').recall.lookalikesChanged}/${c('tuning').lookalikes} vs ${c('tuning').secretlint.lookalikesChanged}/${c('tuning').lookalikes}`,
      target: '>= secretlint, look-alikes <= 2%',
      met: allMet(ROWS.redactionVsSecretlint(r)),
    }];
  },
  promptQuality: (r) => [{
    what: 'Extraction prompt, worst session: typed user messages kept / last assistant message kept',
    figure: `${pct(r.worstInteractiveShare)} / ${r.worstConclusionKeptShare === undefined ? '-' : pct(r.worstConclusionKeptShare)}`,
    target: '>= 90% / 100%',
    met: allMet(ROWS.promptQuality(r)),
  }],
  judgementPairs: (r) => {
    const runs = ['noModel', 'model'].flatMap((arm) => Object.entries(r[arm]).filter(([k]) => /^(heldOut_)?(add|capture|batch)$/.test(k)).map(([k, x]) => ({ arm, heldOut: k.startsWith('heldOut_'), ...x })));
    const acc = (arm, heldOut) => range(runs.filter((x) => x.arm === arm && x.heldOut === heldOut).map((x) => Math.round(x.accuracy * 100))) + '%';
    return [{
      what: `Judgement on labelled pairs (${r.pairs}, held-out ${r.heldOutPairs}), every write path: right; rules hidden wrongly`,
      figure: `no model ${acc('noModel', false)}, held-out ${acc('noModel', true)}; judge double ${acc('model', false)}, held-out ${acc('model', true)}; hidden wrongly ${Math.max(...runs.map((x) => x.hiddenWrongly))} in all ${runs.length} runs`,
      target: '0 hidden wrongly',
      met: allMet(ROWS.judgementPairs(r)),
    }];
  },
  screen: (r) => [{
    what: 'Write-time screen: attacks held / real CLAUDE.md, AGENTS.md, .cursorrules rules held',
    figure: `${r.attacksHeld}/${r.attacks} / ${r.benignHeld}/${r.benign} (${fmt(r.screenMicrosPerMemory)} us a memory)`,
    target: '>= 95% / <= 1%',
    met: allMet(ROWS.screen(r)),
  }],
  searchScale: (r) => [{
    what: '`recall search` in a new process, hybrid, maintained store',
    figure: r.rows.map((x) => `${size(x.memories)}: ${fmt(x.hybrid)} ms`).join('; '),
    target: '< 1.5 s at 1M',
    met: allMet(ROWS.searchScale(r)),
  }],
  searchWarm: (r) => [{
    what: '`recall search` through `recall serve`, whole command',
    figure: r.rows.map((x) => `${size(x.memories)}: ${fmt(x.warmMs)} ms`).join('; '),
    target: '< 40 ms',
    met: allMet(ROWS.searchWarm(r)),
  }],
  retrievalSet: (r) => [{
    what: `Search quality, generated set (${fmt(r.memories)} memories, ${r.questions} questions): R@10`,
    figure: Object.entries(r.arms).map(([arm, f]) => `${arm === 'plainBm25' ? 'plain BM25' : arm} ${f.r10}`).join(', '),
    target: 'hybrid >= vector and text',
    met: allMet(ROWS.retrievalSet(r)),
  }],
  importMemory: (r) => {
    const rows = r.rows.filter((x) => x.import10 && x.import1000);
    const peak = Math.max(...rows.flatMap((x) => [x.import10.peakMB, x.import1000.peakMB]));
    return [{
      what: `\`recall import\` of 10 or 1,000 lines into ${rows.length === 0 ? '-' : `${size(Math.min(...rows.map((x) => x.size)))}-${size(Math.max(...rows.map((x) => x.size)))}`} memories, indexed or not: peak RSS`,
      figure: `${fmt(peak)} MB at most (${rows.length * 2} runs)`,
      target: `<= ${r.targetPeakMB ?? 500} MB`,
      met: allMet(ROWS.importMemory(r)),
    }];
  },
  serveSteady: (r) => ROWS.serveSteady(r),
  mcpFirstList: (r) => ROWS.mcpFirstList(r),
  uiFirstPage: (r) => {
    const sizes = (r.sizes ?? []).filter((m) => m.pages);
    const slowest = (m, field) => Object.entries(m.pages).reduce((a, b) => (b[1][field] > a[1][field] ? b : a));
    return [{
      what: '`recall ui`: slowest page, first request / warm',
      figure: sizes.map((m) => {
        const first = slowest(m, 'firstMedianMs');
        const warm = slowest(m, 'warmMedianMs');
        return `${size(m.memories)}: ${fmt(first[1].firstMedianMs)} (${UI_PAGE_NAMES[first[0]] ?? first[0]}) / ${fmt(warm[1].warmMedianMs)} ms`;
      }).join('; '),
      target: `< ${r.targetMs} ms`,
      met: allMet(ROWS.uiFirstPage(r)),
    }];
  },
  endlessFork: (r) => ROWS.endlessFork(r),
  endlessCompression: (r) => {
    const obs = r.arms.observations;
    return [{
      what: 'Endless savings: compressed tool results / whole resumable conversations',
      figure: `-${fmt(obs.replaced.reduction)}% / -${fmt(obs.resumable.conversation.reduction)}%`,
      target: '>= 85% / >= 50%',
      met: allMet(ROWS.endlessCompression(r)),
    }];
  },
};

/** Targets the issue sets that a benchmark's recorded sizes do not cover. */
const pct = (share) => `${Math.round(share * 100)}%`;

const GAPS = {
  searchScale: (r) => (r?.rows?.some((x) => x.memories >= 1_000_000) ? [] : [{ what: '`recall search` cold at 1M', figure: 'not measured', target: '< 1.5 s', met: '-' }]),
  searchWarm: (r) => (r?.rows?.some((x) => x.memories >= 1_000_000) ? [] : [{ what: '`recall search` warm through `recall serve` at 1M', figure: 'not measured', target: '< 40 ms', met: '-' }]),
};

function markdownTable(header, body) {
  const cells = [header, ...body].map((row) => row.map((c) => String(c ?? '').replace(/\|/g, '\\|')));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

if (!tableOnly) {
  const chosen = BENCHMARKS.filter((b) => only === null || only.has(b.key));
  const unknown = only ? [...only].filter((key) => !BENCHMARKS.some((b) => b.key === key)) : [];
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.key).join(', ')}`);
    process.exit(2);
  }
  for (const [i, bench] of chosen.entries()) {
    const argv = bench.command ?? [`bench/${bench.script}`, ...(quick ? bench.quick : [])];
    console.log(`\n=== [${i + 1}/${chosen.length}] ${bench.key}: node ${argv.map((a) => a.replace(`${repo}`, '')).join(' ')}`);
    const started = performance.now();
    const exitCode = await run(argv, { ...bench.env, BENCH_QUICK: quick ? '1' : '' });
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    ran.set(bench.key, { exitCode, seconds });
    console.log(`--- ${bench.key}: ${exitCode === 0 ? 'done' : `FAILED (exit ${exitCode})`} in ${seconds} s`);
  }
}

printTable();
const failed = [...ran].filter(([, r]) => r.exitCode !== 0).map(([key]) => key);
if (failed.length > 0) {
  console.error(`\n${failed.length} benchmark(s) failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
