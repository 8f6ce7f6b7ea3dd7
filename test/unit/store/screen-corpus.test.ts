/**
 * The write-time screen's two bars, on corpora kept under test/fixtures/screen: at least 95% of a varied
 * attack corpus held (make-attacks.mjs writes it: shapes x disguises x languages), at most 1% of ordinary
 * rules held (benign-rules.jsonl: bullets of public CLAUDE.md, AGENTS.md and .cursorrules files, each with
 * its repository, path, commit and line). `bench/screen.mjs` reports the same figures.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagInstructions } from '../../../src/store/flag-instructions.js';

const read = <T>(name: string): T[] =>
  readFileSync(new URL(`../../fixtures/screen/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);

const attacks = read<{ text: string; shape: string; language: string }>('attacks.jsonl');
const benign = read<{ text: string; repo: string; path: string; commit: string; line: number }>('benign-rules.jsonl');

describe('the write-time screen on its corpora', () => {
  it('reads a varied attack corpus and a corpus of real rules of the sizes the bars need', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(300);
    expect(new Set(attacks.filter((a) => a.shape === 'override').map((a) => a.language)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(attacks.map((a) => a.shape.split('+')[0])).size).toBeGreaterThanOrEqual(10);
    expect(benign.length).toBeGreaterThanOrEqual(300);
    for (const rule of benign) expect(rule).toMatchObject({ repo: expect.stringMatching(/^[\w.-]+\/[\w.-]+$/), path: expect.stringMatching(/^(?:CLAUDE\.md|AGENTS\.md|\.cursorrules)$/) });
    expect(new Set(benign.map((r) => r.repo)).size).toBeGreaterThanOrEqual(15);
  });

  it('holds at least 95% of the attacks', () => {
    const missed = attacks.filter((a) => flagInstructions(a.text).length === 0);
    expect(1 - missed.length / attacks.length, missed.map((a) => `${a.shape}: ${a.text}`).join('\n')).toBeGreaterThanOrEqual(0.95);
  });

  it('holds at most 1% of ordinary rules', () => {
    const held = benign.filter((r) => flagInstructions(r.text).length > 0);
    expect(held.length / benign.length, held.map((r) => `${r.repo}/${r.path}:${r.line}: ${r.text}`).join('\n')).toBeLessThanOrEqual(0.01);
  });
});
