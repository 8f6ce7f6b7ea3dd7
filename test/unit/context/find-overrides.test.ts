import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { findOverriddenGlobals } from '../../../src/context/find-overrides.js';

let n = 0;
function rule(content: string, namespace: string): MemoryRecord {
  n += 1;
  return {
    id: `r${n}`, content, type: 'golden_rule', importance: 1, namespace, projectRoot: null, sessionId: null, source: 'manual',
    embedder: 'hash:64', createdAt: '2025-01-01T00:00:00.000Z', lastSeenAt: '2025-01-01T00:00:00.000Z', seenCount: 1, provenance: 'manual',
  };
}

describe('findOverriddenGlobals', () => {
  it('marks a global rule that a project rule changes, and only that one', () => {
    const npm = rule('You MUST use npm for installs.', 'global');
    const tabs = rule('Indent with two spaces.', 'global');
    const overridden = findOverriddenGlobals([rule('You MUST use pnpm for installs.', 'project:shop-12345678')], [npm, tabs]);
    expect([...overridden]).toEqual([npm.id]);
  });

  it('leaves a global rule about another subject alone', () => {
    const api = rule('Run npm test in the api package.', 'global');
    expect(findOverriddenGlobals([rule('Run npm test in the web package.', 'project:shop-12345678')], [api]).size).toBe(0);
  });
});
