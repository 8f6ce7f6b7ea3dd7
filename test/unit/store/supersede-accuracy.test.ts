/** The decision on the labelled pairs, with the hash embedder and no model: the rules and the config defaults alone. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { createHashEmbedder } from '../../../src/embed/hash-embedder.js';
import { parseLabelledPairs, scorePairDecisions } from '../../../src/store/score-pair-decisions.js';

const defaults = configSchema.parse({});
const options = { threshold: defaults.dedupe.threshold, band: defaults.dedupe.supersedeBand, judge: null };
const read = (name: string) => parseLabelledPairs(readFileSync(new URL(`../../fixtures/supersede/${name}`, import.meta.url), 'utf8'));

describe('supersede decisions on labelled pairs', () => {
  it('decides at least 95% of the main set right without a model', async () => {
    const pairs = read('pairs.jsonl');
    expect(pairs.length).toBeGreaterThanOrEqual(100);
    const score = await scorePairDecisions(pairs, createHashEmbedder(), options);
    expect(score.accuracy).toBeGreaterThanOrEqual(0.95);
  });

  it('covers every kind in the main set, each with pairs labelled as its kind means', () => {
    const pairs = read('pairs.jsonl');
    const labelOf: Record<string, string> = { paraphrase: 'same', update: 'supersede', contradiction: 'supersede', unrelated: 'different', 'related-but-different': 'different' };
    expect(new Set(pairs.map((p) => p.kind))).toEqual(new Set(Object.keys(labelOf)));
    expect(pairs.filter((p) => labelOf[p.kind] !== p.label)).toEqual([]);
  });

  it('on the judgement set, never replaces a rule its label keeps, and decides at least 95% right without a model', async () => {
    const pairs = read('judgement-pairs.jsonl');
    expect(pairs.length).toBeGreaterThanOrEqual(150);
    const labelOf: Record<string, string> = { paraphrase: 'same', update: 'supersede', contradiction: 'supersede', 'different-subject': 'different', refinement: 'different', scope: 'different' };
    expect(new Set(pairs.map((p) => p.kind))).toEqual(new Set(Object.keys(labelOf)));
    expect(pairs.filter((p) => labelOf[p.kind] !== p.label)).toEqual([]);
    const score = await scorePairDecisions(pairs, createHashEmbedder(), options);
    expect(score.wrong.filter((w) => w.got === 'supersede' && w.label !== 'supersede')).toEqual([]);
    expect(score.wrong.filter((w) => w.got === 'same' && w.label === 'different')).toEqual([]);
    expect(score.accuracy).toBeGreaterThanOrEqual(0.95);
  });

  it('on the held-out judgement set (written apart from the rules), hides no rule wrongly without a model', async () => {
    const pairs = read('judgement-heldout.jsonl');
    expect(pairs.length).toBeGreaterThanOrEqual(40);
    expect(new Set(pairs.map((p) => p.kind))).toEqual(new Set(['paraphrase', 'update', 'contradiction', 'different-subject', 'refinement', 'scope']));
    const score = await scorePairDecisions(pairs, createHashEmbedder(), options);
    expect(score.wrong.filter((w) => (w.got === 'supersede' && w.label !== 'supersede') || (w.got === 'same' && w.label === 'different'))).toEqual([]);
    expect(score.accuracy).toBeGreaterThanOrEqual(0.85);
  });
});
