// Checks that two builds read transcripts into the same thing: the rendered prompt byte for byte, the counts,
// the render stats, the first request, the cwd and the words each kind of text holds. Run on every fixture
// transcript (at three budgets), the capture benchmark's 10 MB session, seeded varied sessions built from the
// redaction corpus (secrets and look-alikes at the places the renderer cuts) and a few odd files (lone CRs, a
// BOM, no final newline, a span that starts inside a line).
// Usage: npm run build && node scripts/compare-prompts.mjs <baseline dist/> [this dist/ (default ./dist)]
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeBenchTranscript, writeVariedTranscript } from '../bench/synthetic-transcripts.mjs';

const [baselineArg, currentArg = 'dist'] = process.argv.slice(2);
if (baselineArg === undefined) {
  console.error('usage: node scripts/compare-prompts.mjs <baseline dist/> [this dist/]');
  process.exit(2);
}
const repo = new URL('..', import.meta.url).pathname;
const load = async (dist) => (await import(pathToFileURL(join(resolve(dist), 'transcript/read-transcript.js')).href)).readTranscript;
const readBaseline = await load(baselineArg);
const readCurrent = await load(currentArg);

function jsonlUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => path.endsWith('.jsonl') && statSync(path).isFile())
    .sort();
}

/** Everything a reading yields, in a form two readings can be compared by. */
function normalise(result) {
  const sources = typeof result.sources === 'function' ? result.sources() : result.sources;
  const words = Object.fromEntries([...sources].sort(([a], [b]) => a.localeCompare(b)).map(([kind, set]) => [kind, [...set].sort()]));
  return JSON.stringify({ ...result, sources: words });
}

async function outcome(read, file, options) {
  try {
    return normalise(await read(file, options));
  } catch (err) {
    return `error ${err?.code ?? ''} ${err?.message ?? err}`;
  }
}

const root = mkdtempSync(join(tmpdir(), 'recall-compare-prompts-'));
let cases = 0;
let differ = 0;
async function check(name, file, options) {
  cases += 1;
  const before = await outcome(readBaseline, file, options);
  const after = await outcome(readCurrent, file, options);
  if (before === after) return;
  differ += 1;
  let at = 0;
  while (at < before.length && before[at] === after[at]) at += 1;
  console.log(`DIFFERS ${name} ${JSON.stringify(options)} at ${at}:\n  before …${before.slice(Math.max(0, at - 80), at + 120)}\n  after  …${after.slice(Math.max(0, at - 80), at + 120)}`);
}

try {
  const fixtures = [
    ...jsonlUnder(join(repo, '../shared/fixtures/transcripts')),
    ...jsonlUnder(join(repo, 'test/fixtures/transcripts')),
    ...jsonlUnder(join(repo, 'test/fixtures/endless')),
  ];
  const corpus = ['secrets', 'heldout-secrets', 'lookalikes', 'heldout-lookalikes'].map((name) => join(repo, `test/fixtures/redaction/${name}.jsonl`));
  const varied = [];
  for (let seed = 1; seed <= 18; seed += 1) {
    const file = join(root, `varied-${seed}.jsonl`);
    writeVariedTranscript(file, seed, corpus, seed > 16 ? 1500 : 300);
    varied.push(file);
  }
  const odd = join(root, 'odd.jsonl');
  writeFileSync(
    odd,
    `\uFEFF${JSON.stringify({ type: 'user', message: { role: 'user', content: 'first, with a BOM' } })}\r\n` +
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: 'one' } })}\r${JSON.stringify({ type: 'user', message: { role: 'user', content: 'after a lone CR' } })}\n` +
      '\n   \n{"broken\n[1,2]\n' +
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: 'ünïcödé 日本語 🎉 no final newline' } })}`,
  );
  for (const file of [...fixtures, ...varied, odd]) {
    for (const maxChars of [12_000, 3_000, 40_000]) await check(file.replace(root, '<tmp>'), file, { maxChars });
  }
  const size = statSync(varied[3]).size;
  for (const startByte of [1, Math.floor(size / 3), Math.floor(size / 2)]) await check('<tmp>/varied-4.jsonl', varied[3], { maxChars: 12_000, startByte, endByte: Math.floor((size * 5) / 6) });
  await check('<tmp>/odd.jsonl', odd, { maxChars: 12_000, maxLineBytes: 40 });
  const bench = join(root, 'bench.jsonl');
  writeBenchTranscript(bench, 10 * 2 ** 20);
  await check('<tmp>/bench.jsonl (10 MB)', bench, { maxChars: 12_000 });
  console.log(`${cases} readings compared (${fixtures.length} fixtures, ${varied.length} varied sessions, odd lines, spans, the 10 MB benchmark session): ${differ === 0 ? 'all the same' : `${differ} differ`}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(differ === 0 ? 0 : 1);
