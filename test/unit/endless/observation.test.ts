import { describe, expect, it } from 'vitest';
import { parseObservationAnswer, validateObservation } from '../../../src/endless/observation.js';

const good = {
  type: 'bugfix',
  title: '4 of 5 tests fail in project_review_live_test.exs',
  subtitle: 'assert fails at line 99',
  narrative: 'mix test ran 5 tests.',
  facts: ['test/spotter_web/live/project_review_live_test.exs:99 expected "No open annotations"', 'Finished in 1.2 seconds'],
  concepts: ['liveview'],
  files: ['test/spotter_web/live/project_review_live_test.exs'],
};

describe('validateObservation', () => {
  it('accepts a complete observation as it is', () => {
    expect(validateObservation(good)).toEqual({ ok: true, observation: good });
  });

  it('repairs what small models get slightly wrong', () => {
    const checked = validateObservation({ type: 'Bug Fix', title: '  two\n lines ', facts: [42, 'x', 'x', null, true], concepts: 'not a list' });
    expect(checked).toEqual({
      ok: true,
      observation: { type: 'discovery', title: 'two lines', subtitle: '', narrative: '', facts: ['42', 'x', 'true'], concepts: [], files: [] },
    });
  });

  it('refuses an observation without a title', () => {
    expect(validateObservation({ ...good, title: ' ' })).toEqual({ ok: false, problem: 'no title' });
  });

  it('refuses an observation with neither narrative nor facts', () => {
    expect(validateObservation({ title: 'x', narrative: '', facts: [] })).toEqual({ ok: false, problem: 'neither narrative nor facts' });
  });

  it('refuses values that are not objects', () => {
    expect(validateObservation([good])).toMatchObject({ ok: false });
    expect(validateObservation('text')).toMatchObject({ ok: false });
  });

  it('bounds the length of every field', () => {
    const checked = validateObservation({ title: 't'.repeat(1000), narrative: 'n'.repeat(10_000), facts: Array.from({ length: 100 }, (_, i) => `fact ${i}`) });
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.observation.title.length).toBeLessThanOrEqual(160);
      expect(checked.observation.narrative.length).toBeLessThanOrEqual(2000);
      expect(checked.observation.facts).toHaveLength(20);
    }
  });
});

describe('parseObservationAnswer', () => {
  it('reads plain JSON, fenced JSON, and JSON after a thinking block or chatter', () => {
    const json = JSON.stringify(good);
    expect(parseObservationAnswer(json).ok).toBe(true);
    expect(parseObservationAnswer(`\`\`\`json\n${json}\n\`\`\``).ok).toBe(true);
    expect(parseObservationAnswer(`<think>hmm {not json}</think>${json}`).ok).toBe(true);
    expect(parseObservationAnswer(`Here is the observation: ${json} Hope it helps.`).ok).toBe(true);
  });

  it('reports garbage as unusable', () => {
    expect(parseObservationAnswer('<html>this is not JSON{')).toEqual({ ok: false, problem: 'the answer holds no JSON object' });
    expect(parseObservationAnswer('{"memories": []}')).toEqual({ ok: false, problem: 'no title' });
  });
});
