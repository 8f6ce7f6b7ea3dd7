import { describe, expect, it } from 'vitest';
import { queryTerms, speakerWords, withoutSpeakers } from '../../../src/search/text-query.js';
import { vectorWeightFor } from '../../../src/search/fusion-weights.js';

describe('the text side query', () => {
  it('leaves out question words and pronouns ("what", "did", "his")', () => {
    expect(queryTerms('What did his team decide about the Redis cache?')).toEqual(['team', 'decide', 'redis', 'cache']);
  });

  it('keeps the words of a query made only of stop words', () => {
    expect(queryTerms('what is it')).toEqual(['what', 'is', 'it']);
  });

  it('reads the speaker or agent a memory opens with', () => {
    expect(speakerWords('Maria: I finally booked the Lisbon trip')).toEqual(['maria']);
    expect(speakerWords('Dr Chen: the results are in')).toEqual(['dr', 'chen']);
    expect(speakerWords('assistant: ran the tests')).toEqual(['assistant']);
    expect(speakerWords('You MUST use pnpm; see https://pnpm.io for why.')).toEqual([]);
  });

  it('takes speaker names out of the terms, unless nothing would be left', () => {
    const found = ['Maria: I booked the Lisbon trip', 'Maria: thanks!', 'Tom: see you'];
    expect(withoutSpeakers(['maria', 'lisbon', 'trip'], found)).toEqual(['lisbon', 'trip']);
    expect(withoutSpeakers(['maria'], found)).toBeNull();
    expect(withoutSpeakers(['lisbon'], found)).toBeNull();
  });
});

describe('fusion weights', () => {
  it('gives the lexical hash embedder less say than a semantic model', () => {
    expect(vectorWeightFor('hash:384')).toBeLessThan(vectorWeightFor('transformers:Xenova/all-MiniLM-L6-v2'));
    expect(vectorWeightFor('ollama:nomic-embed-text')).toBe(vectorWeightFor('transformers:Xenova/all-MiniLM-L6-v2'));
  });
});
