// Supersede decisions on the labelled pairs in test/fixtures/supersede/: for each pair (a stored memory
// and a new one) the decision a capture makes (same -> reinforce, supersede, different -> store), with the
// hash embedder and no model (the rules and the config defaults alone), against its label. Prints the
// accuracy per kind for the main set and for the held-out set (written after the rules, never tuned on).
// Usage: npm run build && node bench/supersede-decisions.mjs [band]   (default: dedupe.supersedeBand's default)
import { readFileSync } from 'node:fs';
import { recordResult } from './results.mjs';

const dist = new URL('../dist/', import.meta.url);
const { parseLabelledPairs, scorePairDecisions } = await import(new URL('store/score-pair-decisions.js', dist).href);
const { createHashEmbedder } = await import(new URL('embed/hash-embedder.js', dist).href);
const { configSchema } = await import(new URL('config/schema.js', dist).href);
const { dedupe } = configSchema.parse({});
const options = { threshold: dedupe.threshold, band: process.argv[2] === undefined ? dedupe.supersedeBand : Number(process.argv[2]), judge: null };

const sets = {};
for (const [name, file] of [['main', 'pairs.jsonl'], ['heldOut', 'held-out.jsonl']]) {
  const pairs = parseLabelledPairs(readFileSync(new URL(`../test/fixtures/supersede/${file}`, import.meta.url), 'utf8'));
  const score = await scorePairDecisions(pairs, createHashEmbedder(), options);
  sets[name] = {
    pairs: score.pairs,
    accuracy: round(score.accuracy),
    byKind: Object.fromEntries(Object.entries(score.byKind).map(([kind, k]) => [kind, { pairs: k.pairs, accuracy: round(k.accuracy) }])),
  };
  console.log(`${name} (${file}): ${score.correct}/${score.pairs} right (${pct(score.accuracy)})`);
  for (const [kind, k] of Object.entries(score.byKind)) console.log(`  ${kind.padEnd(22)} ${String(k.correct).padStart(3)}/${String(k.pairs).padEnd(3)} ${pct(k.accuracy)}`);
  for (const w of score.wrong) console.log(`  wrong: ${w.kind}, said ${w.got} (cosine ${w.similarity.toFixed(2)}): "${w.old}" -> "${w.new}"`);
}
recordResult('supersedeDecisions', { embedder: 'hash:384', model: 'none', threshold: options.threshold, band: options.band, ...sets });

function round(x) {
  return Math.round(x * 1000) / 1000;
}

function pct(x) {
  return `${Math.round(x * 1000) / 10}%`;
}
