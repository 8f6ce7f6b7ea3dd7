import { describe, expect, it } from 'vitest';
import { closeMatches, editDistance } from '../../../src/search/close-matches.js';

describe('closeMatches', () => {
  const namespaces = ['global', 'project:api-1a2b3c4d', 'project:shop-5e6f7a8b', 'project:apiary-00000000'];

  it('suggests names that contain the input, then near misses by edit distance', () => {
    expect(closeMatches('project:api', namespaces)).toEqual(['project:api-1a2b3c4d', 'project:apiary-00000000']);
    expect(closeMatches('projct:shop-5e6f7a8b', namespaces)).toEqual(['project:shop-5e6f7a8b']);
    expect(closeMatches('glbal', namespaces)).toEqual(['global']);
  });

  it('suggests nothing for an unrelated name or an exact match', () => {
    expect(closeMatches('zzzzzzzz', namespaces)).toEqual([]);
    expect(closeMatches('global', ['global'])).toEqual([]);
  });

  it('returns at most the number asked for', () => {
    expect(closeMatches('a', ['ab', 'ac', 'ad', 'ae'], 2)).toHaveLength(2);
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions, and stops early past the limit', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  });
});
