// Judgement on labelled pairs (issue 29): test/fixtures/supersede/judgement-pairs.jsonl (152 pairs: same
// subject changed, different subject of the same shape, refinement, scope, paraphrase) and
// judgement-heldout.jsonl (pairs written apart from the rules, reported apart under heldOut_*), plus the
// older main and held-out sets for the decision alone. Each pair is an older memory and a newer one; the figure
// is what ends up stored:
//   decision  the pair judged as a capture judges a stored memory against a new one (no store);
//   add       `recall add` of the old text, then of the new one (storeManualMemory, real LanceDB);
//   capture   two captures, the old one's then the new one's (captureTranscript with the model's answer
//             given, real LanceDB), user provenance;
//   batch     one capture that states the old rule and then the new one.
// Outcomes: the new one replaced the old (supersede), was taken as the old said again (same), or both stay
// current (different). "Rules hidden wrongly" counts an old rule replaced where the label is not
// supersede, and a new rule dropped as a repeat where the label is different; "changes missed" counts a
// supersede label that did not end in a replacement.
// With a model: the pairs the rules leave open go to the extraction model through the Ollama protocol
// double (scripts/ollama-double.mjs), which answers each pair with its label, as a judge that is always
// right would. That measures which pairs reach the model and how the decisions end when it judges them
// right; it says nothing of how often a real model is right.
// Usage: npm run build && node bench/judgement-pairs.mjs
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OllamaDouble } from '../scripts/ollama-double.mjs';
import { recordResult } from './results.mjs';

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { parseLabelledPairs, scorePairDecisions } = await load('store/score-pair-decisions.js');
const { createHashEmbedder } = await load('embed/hash-embedder.js');
const { configSchema } = await load('config/schema.js');
const { openLanceStore } = await load('adapters/lance-store.js');
const { createOllamaLlm } = await load('adapters/ollama-llm.js');
const { createModelJudge } = await load('store/model-judge.js');
const { storeManualMemory } = await load('store/store-manual-memory.js');
const { captureTranscript } = await load('worker/capture.js');
const { resolveProject } = await load('project/resolve-project.js');

const read = (name) => parseLabelledPairs(readFileSync(new URL(`../test/fixtures/supersede/${name}`, import.meta.url), 'utf8'));
const pairs = read('judgement-pairs.jsonl');
// Pairs written apart from the rules (judgement-heldout.jsonl), measured the same way and reported apart.
const heldOut = read('judgement-heldout.jsonl');
const MODEL = 'llama3.2:3b';

// The judge double: each pair answered with its label.
const labels = new Map(pairs.map((p) => [`${p.old}\u0000${p.new}`, p.label]));
for (const p of [...heldOut, ...read('pairs.jsonl'), ...read('held-out.jsonl')]) labels.set(`${p.old}\u0000${p.new}`, p.label);
const between = (text, tag) => text.match(new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`))?.[1] ?? '';
const double = new OllamaDouble({
  models: [MODEL],
  reply: (body) => {
    const prompt = String(body.messages?.at(-1)?.content ?? '');
    const verdict = labels.get(`${between(prompt, 'old-note')}\u0000${between(prompt, 'new-note')}`) ?? 'different';
    return JSON.stringify({ verdict, reason: 'labelled' });
  },
});
const server = await double.start();
const embedder = createHashEmbedder();
const root = mkdtempSync(join(tmpdir(), 'recall-judgement-bench-'));

try {
  const figures = { embedder: embedder.id, pairs: pairs.length, heldOutPairs: heldOut.length, note: 'model: an Ollama-protocol double answering each pair with its label (a judge that is always right); it measures routing, not a real model' };
  for (const withModel of [false, true]) {
    const config = configSchema.parse(withModel ? { ollama: { host: server.url, llmModel: MODEL } } : {});
    const llm = createOllamaLlm({ host: server.url, model: MODEL, timeoutMs: 10_000 });
    const judge = withModel ? createModelJudge(llm) : null;
    const arm = withModel ? 'model' : 'noModel';
    const calls = () => double.requestsTo('/api/chat').length;
    const result = {};

    let before = calls();
    const decisionOptions = { threshold: config.dedupe.threshold, band: config.dedupe.supersedeBand, judge };
    for (const [name, set] of [['judgement', pairs], ['judgementHeldOut', heldOut], ['main', read('pairs.jsonl')], ['heldOut', read('held-out.jsonl')]]) {
      const score = await scorePairDecisions(set, embedder, decisionOptions);
      const outcomes = set.map((p) => ({ pair: p, got: score.wrong.find((w) => w.old === p.old && w.new === p.new)?.got ?? p.label }));
      result[`decision_${name}`] = summarise(outcomes, calls() - before);
      before = calls();
    }
    for (const [setName, set] of [['', pairs], ['heldOut_', heldOut]]) {
      for (const path of ['add', 'capture', 'batch']) {
        const store = await openLanceStore(join(root, `${arm}-${setName}${path}`));
        const parts = { config, llm: () => llm, embedder: async () => embedder, store: async () => store, withStoreLock: (fn) => fn(), clock: { now: () => new Date() } };
        const outcomes = [];
        before = calls();
        for (const [i, pair] of set.entries()) outcomes.push({ pair, got: await runPair(path, i, pair, store, parts, join(root, `${arm}-${setName}${path}-p${i}`)) });
        result[`${setName}${path}`] = summarise(outcomes, calls() - before);
        await store.close();
      }
    }
    // The wrong pairs are printed below; the results file keeps the counts.
    figures[arm] = Object.fromEntries(Object.entries(result).map(([name, { wrong: _wrong, ...counts }]) => [name, counts]));
    console.log(`${arm}:`);
    for (const [name, r] of Object.entries(result)) console.log(`  ${name.padEnd(20)} ${r.correct}/${r.pairs} right (${pct(r.accuracy)}), hidden wrongly ${r.hiddenWrongly}, changes missed ${r.changesMissed}, model calls ${r.modelCalls}`);
    for (const w of result.add.wrong) console.log(`  add wrong: ${w.kind} ${w.label} -> ${w.got}: "${w.old}" -> "${w.new}"`);
    for (const w of result.heldOut_add.wrong) console.log(`  held-out add wrong: ${w.kind} ${w.label} -> ${w.got}: "${w.old}" -> "${w.new}"`);
  }
  recordResult('judgementPairs', figures);
} finally {
  await server.close();
  rmSync(root, { recursive: true, force: true });
}

/** Stores the pair one way and reads back what became of it. */
async function runPair(path, i, pair, store, parts, dir) {
  let namespace;
  if (path === 'add') {
    namespace = `project:pair${i}-${(0x10000000 + i).toString(16)}`;
    const origin = { namespace, projectRoot: null, sessionId: null, source: 'manual' };
    await storeManualMemory({ text: pair.old, type: 'decision' }, origin, parts);
    await storeManualMemory({ text: pair.new, type: 'decision' }, origin, parts);
  } else {
    mkdirSync(join(dir, '.git'), { recursive: true });
    namespace = resolveProject(dir).namespace;
    const memory = (content) => ({ content, type: 'decision', importance: 0.8, provenance: 'user' });
    const capture = (sessionId, cached) => captureTranscript({ transcriptPath: join(dir, 'none.jsonl'), cwd: dir, sessionId, source: 'claude', cached }, parts);
    if (path === 'capture') {
      await capture('s1', [memory(pair.old)]);
      await capture('s2', [memory(pair.new)]);
    } else {
      await capture('s1', [memory(pair.old), memory(pair.new)]);
    }
  }
  const rows = await store.list({ namespace, allVersions: true, limit: 10 });
  const oldRow = rows.find((r) => r.content === pair.old);
  const newRow = rows.find((r) => r.content === pair.new);
  if (newRow === undefined) return 'same';
  if (oldRow?.supersededBy === newRow.id) return 'supersede';
  return 'different';
}

function summarise(outcomes, modelCalls) {
  const wrong = outcomes.filter((o) => o.got !== o.pair.label).map((o) => ({ ...o.pair, got: o.got }));
  const hiddenWrongly = wrong.filter((w) => (w.got === 'supersede' && w.label !== 'supersede') || (w.got === 'same' && w.label === 'different')).length;
  const changesMissed = wrong.filter((w) => w.label === 'supersede').length;
  const byKind = {};
  for (const o of outcomes) {
    const k = (byKind[o.pair.kind] ??= { pairs: 0, correct: 0 });
    k.pairs += 1;
    if (o.got === o.pair.label) k.correct += 1;
  }
  const correct = outcomes.length - wrong.length;
  return { pairs: outcomes.length, correct, accuracy: round(correct / outcomes.length), hiddenWrongly, changesMissed, modelCalls, byKind, wrong };
}

function round(x) {
  return Math.round(x * 1000) / 1000;
}

function pct(x) {
  return `${Math.round(x * 1000) / 10}%`;
}
