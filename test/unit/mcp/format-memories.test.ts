import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { formatForgotten, formatHits, formatRecent, formatStored } from '../../../src/mcp/format-memories.js';

const HOME = 'project:shop-1a2b3c4d';
const NOW = new Date('2026-03-04T12:00:00.000Z');

function record(over: Partial<MemoryRecord>): MemoryRecord {
  return {
    id: '01J00000000000000000000001', content: 'Use PostgreSQL 16 for orders.', type: 'decision', importance: 0.8,
    namespace: HOME, projectRoot: '/w/shop', sessionId: null, source: 'claude', embedder: 'hash:384',
    createdAt: '2026-03-04T10:00:00.000Z', lastSeenAt: '2026-03-04T10:00:00.000Z', seenCount: 1, ...over,
  };
}

describe('formatHits', () => {
  it('writes one numbered line per hit with type, content, id and score', () => {
    const text = formatHits([{ record: record({}), score: 0.8234, vectorScore: 0.7, textScore: 1 }], 'orders db', 'project shop and global', { home: HOME, now: NOW });
    expect(text).toBe('1. [decision] Use PostgreSQL 16 for orders. (id 01J00000000000000000000001, score 0.82)');
  });

  it('names the namespace of a hit outside the server project and folds line breaks', () => {
    const hits = [
      { record: record({ id: 'A', content: 'You MUST\nuse pnpm.', type: 'golden_rule', namespace: 'global' }), score: 0.5, vectorScore: null, textScore: 0.5 },
      { record: record({ id: 'B', namespace: 'project:api-0000abcd' }), score: 0.25, vectorScore: 0.25, textScore: null },
    ];
    expect(formatHits(hits, 'q', 'all namespaces', { home: HOME, now: NOW }).split('\n')).toEqual([
      '1. [golden_rule] You MUST use pnpm. (id A, score 0.50, global)',
      '2. [decision] Use PostgreSQL 16 for orders. (id B, score 0.25, project api)',
    ]);
  });

  it('says where it looked when nothing matches', () => {
    expect(formatHits([], '  money\n ', 'project shop and global', { home: HOME, now: NOW })).toBe('No memories match "money" in project shop and global.');
  });
});

describe('formatRecent', () => {
  it('shows the age of each memory, newest first as given', () => {
    const text = formatRecent([record({ id: 'A' }), record({ id: 'B', type: 'session', createdAt: '2026-03-01T12:00:00.000Z', content: 'Fixed the build.' })], 'project shop', { home: HOME, now: NOW });
    expect(text.split('\n')).toEqual(['1. [decision] 2h ago: Use PostgreSQL 16 for orders. (id A)', '2. [session] 3d ago: Fixed the build. (id B)']);
  });

  it('says the scope is empty when there is nothing yet', () => {
    expect(formatRecent([], 'global', { home: 'global', now: NOW })).toBe('No memories yet in global.');
  });
});

describe('formatStored', () => {
  it('reports a new memory with its id, namespace and redactions', () => {
    expect(formatStored({ status: 'stored', id: 'X1', namespace: HOME, redactions: 2 })).toBe('Stored as X1 in project shop. 2 secrets were redacted.');
    expect(formatStored({ status: 'stored', id: 'X2', namespace: 'global', redactions: 0 })).toBe('Stored as X2 in global.');
  });

  it('names the memories a new one replaced', () => {
    expect(formatStored({ status: 'stored', id: 'X3', namespace: 'global', redactions: 0, supersedes: ['X1'] })).toBe(
      'Stored as X3 in global. It replaces X1 (a changed decision; the older version is kept as history and no longer returned).',
    );
  });

  it('reports a duplicate with the id it matched and the similarity', () => {
    expect(formatStored({ status: 'matched', id: 'X1', similarity: 0.912, namespace: HOME, redactions: 1 })).toBe(
      'Already known: matches X1 in project shop (similarity 0.91); nothing new was stored, its seen count went up. 1 secret was redacted.',
    );
  });
});

describe('formatForgotten', () => {
  it('says which memory went and what it said', () => {
    expect(formatForgotten(record({ id: 'Z' }))).toBe('Forgot Z from project shop: [decision] Use PostgreSQL 16 for orders.');
  });
});

describe('formatStored for a proposed change', () => {
  it('tells the agent the change is held for the user and the rule it would replace stays current', () => {
    const text = formatStored({ status: 'stored', id: 'P1', namespace: HOME, redactions: 0, quarantined: true, wantsToReplace: ['U1'] });
    expect(text).toBe('Stored as P1 in project shop as a proposed change: it wants to replace U1, which stays current until the user approves the change with `recall review`.');
  });
});
