// The write-time screen's two bars and its cost, on the built module: the share of the attack corpus it
// holds (test/fixtures/screen/attacks.jsonl, by shape), the share of real rules it holds
// (benign-rules.jsonl), and the time it takes per memory, beside the hash embedder's time for the same
// texts measured in the same run (both run on every stored memory). Medians of N passes.
// Usage: npm run build && node bench/screen.mjs [passes]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { median } from './measure.mjs';
import { recordResult } from './results.mjs';

const passes = Number(process.argv[2] ?? 7);
const { flagInstructions } = await import(new URL('../dist/store/flag-instructions.js', import.meta.url).href);
const { hashEmbed } = await import(new URL('../dist/embed/hash-embedder.js', import.meta.url).href);

const read = (name) =>
  readFileSync(new URL(`../test/fixtures/screen/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
const attacks = read('attacks.jsonl');
const benign = read('benign-rules.jsonl');

const heldAttacks = attacks.filter((a) => flagInstructions(a.text).length > 0);
const heldBenign = benign.filter((r) => flagInstructions(r.text).length > 0);
const byShape = {};
for (const a of attacks) {
  const shape = a.shape.split('+')[1] ?? a.shape;
  byShape[shape] ??= { held: 0, total: 0 };
  byShape[shape].total += 1;
  if (heldAttacks.includes(a)) byShape[shape].held += 1;
}

/** Microseconds per text, median over passes of the whole list. */
function perText(fn, texts) {
  for (const t of texts) fn(t); // warm-up
  const samples = [];
  for (let i = 0; i < passes; i += 1) {
    const started = performance.now();
    for (const t of texts) fn(t);
    samples.push(((performance.now() - started) * 1000) / texts.length);
  }
  return median(samples);
}

const texts = [...benign.map((r) => r.text), ...attacks.map((a) => a.text)];
const screenUs = perText(flagInstructions, texts);
const hashUs = perText((t) => hashEmbed(t, 384), texts);

const figures = {
  attacks: attacks.length,
  attacksHeld: heldAttacks.length,
  attackShare: heldAttacks.length / attacks.length,
  benign: benign.length,
  benignHeld: heldBenign.length,
  benignShare: heldBenign.length / benign.length,
  byShape,
  screenMicrosPerMemory: Math.round(screenUs),
  hashEmbedMicrosPerMemory: Math.round(hashUs),
  passes,
};
recordResult('screen', figures);
console.log(`attacks held: ${heldAttacks.length}/${attacks.length} (${(figures.attackShare * 100).toFixed(1)}%)`);
console.log(`real rules held: ${heldBenign.length}/${benign.length} (${(figures.benignShare * 100).toFixed(1)}%)`);
for (const [shape, s] of Object.entries(byShape)) console.log(`  ${shape}: ${s.held}/${s.total}`);
console.log(`screen: ${figures.screenMicrosPerMemory} us per memory; hash embedder on the same texts: ${figures.hashEmbedMicrosPerMemory} us (median of ${passes} passes)`);
