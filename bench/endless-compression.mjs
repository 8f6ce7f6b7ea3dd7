// Characters and estimated tokens (chars / 4) before and after Endless Mode on the real transcripts
// in ../shared/fixtures/transcripts, three arms, each from a fresh state dir:
//   observations: fork with observations from the Ollama-protocol double answering a compact,
//                 3B-model-sized observation (test/fixtures/endless/compact-reply.mjs);
//   reducer:      fork with --no-model: the deterministic reduction alone;
//   observations, 2k thresholds: as the first, with minChars = readMinChars = 2,000 (fork flags).
// "compressed results" counts only the tool results that were replaced; "conversation" is what the
// model reads on resume (message text, tool inputs, tool results); "file" is the JSONL on disk.
// Usage: npm run build && node bench/endless-compression.mjs
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OllamaDouble } from '../scripts/ollama-double.mjs';
import { compactObservationReply } from '../test/fixtures/endless/compact-reply.mjs';
import { recordResult } from './results.mjs';

const dist = new URL('../dist/', import.meta.url);
const { forkSession } = await import(new URL('endless/fork-session.js', dist).href);
const { requestObservation } = await import(new URL('endless/ollama-observe.js', dist).href);
const { ENDLESS_DEFAULTS } = await import(new URL('endless/endless-defaults.js', dist).href);

const fixtures = fileURLToPath(new URL('../../shared/fixtures/transcripts/', import.meta.url));
if (!existsSync(fixtures)) {
  console.log(`no real transcripts at ${fixtures}; nothing to measure`);
  process.exit(0);
}
const files = readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.jsonl')).sort().map((n) => join(fixtures, n));
const double = new OllamaDouble({ reply: compactObservationReply });
const ollama = await double.start();
const root = mkdtempSync(join(tmpdir(), 'recall-bench-endless-'));

const arms = [
  { name: 'observations', useModel: true, thresholds: {} },
  { name: 'reducer', useModel: false, thresholds: {} },
  { name: 'observations, 2k thresholds', useModel: true, thresholds: { minChars: 2000, readMinChars: 2000 } },
];
const figures = {};
try {
  for (const arm of arms) {
    const total = zero();
    const perFile = {};
    for (const [i, file] of files.entries()) {
      const work = join(root, `${arm.name.replace(/\W+/g, '-')}-${i}`);
      const copy = join(work, basename(file));
      mkdirSync(work, { recursive: true });
      copyFileSync(file, copy);
      const s = await forkSession(copy, `0e0e0e0e-0000-4000-8000-${String(i).padStart(12, '0')}`, {
        home: join(work, 'home'),
        settings: { ...ENDLESS_DEFAULTS, denylist: [], enabled: true, ...arm.thresholds, ollama: { host: ollama.url, model: 'llama3.2:3b', numCtx: 8192, timeoutMs: 10_000 } },
        observe: requestObservation, now: () => Date.now(), logger: { log() {} }, keepRecent: ENDLESS_DEFAULTS.keepRecent, useModel: arm.useModel,
      });
      const row = { results: s.results, compressed: s.compressed, replacedBefore: s.replaced.before, replacedAfter: s.replaced.after, resultsBefore: s.before.toolResultChars, resultsAfter: s.after.toolResultChars, conversationBefore: s.before.chars, conversationAfter: s.after.chars, fileBefore: s.before.fileBytes, fileAfter: s.after.fileBytes };
      for (const key of Object.keys(total)) total[key] += row[key];
      if (s.compressed > 0) perFile[relative(fixtures, file)] = summarize(row);
    }
    figures[arm.name] = { total: summarize(total), perFile };
  }
} finally {
  await ollama.close();
  rmSync(root, { recursive: true, force: true });
}

console.log(`Endless Mode on ${files.length} real transcripts (tokens estimated as chars / 4; keepRecent ${ENDLESS_DEFAULTS.keepRecent})`);
for (const [name, { total, perFile }] of Object.entries(figures)) {
  console.log(`\n${name}: ${total.compressed} of ${total.results} tool results compressed`);
  line('compressed results', total.replaced);
  line('all tool results', total.toolResults);
  line('conversation', total.conversation);
  line('file', total.file);
  for (const [file, f] of Object.entries(perFile)) console.log(`    ${file}: compressed ${pct(f.replaced)}, conversation ${pct(f.conversation)} (${f.compressed} results)`);
}
recordResult('endlessCompression', { transcripts: files.length, arms: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.total])) });

function zero() {
  return { results: 0, compressed: 0, replacedBefore: 0, replacedAfter: 0, resultsBefore: 0, resultsAfter: 0, conversationBefore: 0, conversationAfter: 0, fileBefore: 0, fileAfter: 0 };
}
function pair(before, after) {
  return { beforeChars: before, afterChars: after, beforeTokens: Math.round(before / 4), afterTokens: Math.round(after / 4), reduction: before === 0 ? 0 : Math.round((1 - after / before) * 1000) / 10 };
}
function summarize(r) {
  return { results: r.results, compressed: r.compressed, replaced: pair(r.replacedBefore, r.replacedAfter), toolResults: pair(r.resultsBefore, r.resultsAfter), conversation: pair(r.conversationBefore, r.conversationAfter), file: pair(r.fileBefore, r.fileAfter) };
}
function line(label, p) {
  console.log(`  ${label.padEnd(20)} ${p.beforeChars.toLocaleString('en-US')} chars (~${p.beforeTokens.toLocaleString('en-US')} tok) -> ${p.afterChars.toLocaleString('en-US')} (~${p.afterTokens.toLocaleString('en-US')} tok)  -${p.reduction}%`);
}
function pct(p) {
  return `-${p.reduction}%`;
}
