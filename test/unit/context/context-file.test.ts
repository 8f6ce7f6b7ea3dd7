import { describe, expect, it } from 'vitest';
import {
  ADDITIONAL_CONTEXT_CAP,
  contextFileName,
  contextFilePath,
  MAX_CONTEXT_TEXT_CHARS,
  parseContextFile,
  serializeContextFile,
  type ContextFile,
} from '../../../src/context/context-file.js';
import { wrapRecallContext } from '../../../src/transcript/recall-markers.js';

const good: ContextFile = {
  version: 1,
  namespace: 'project:shop-0123abcd',
  generatedAt: '2025-03-10T12:00:00.000Z',
  included: 3,
  omitted: 1,
  text: '## Memories\n- You MUST use pnpm.',
};

describe('contextFileName', () => {
  it('keeps the namespace readable and adds a short hash', () => {
    expect(contextFileName('project:shop-0123abcd')).toMatch(/^project_shop-0123abcd\.[0-9a-f]{8}\.json$/);
    expect(contextFileName('global')).toMatch(/^global\.[0-9a-f]{8}\.json$/);
  });

  it('gives namespaces that fold to the same slug different names', () => {
    expect(contextFileName('project:a b-0123abcd')).not.toBe(contextFileName('project:a_b-0123abcd'));
  });

  it('never produces path separators, dot files or overlong names', () => {
    for (const ns of ['project:../../etc-0123abcd', 'project:.hidden-0123abcd', `project:${'x'.repeat(500)}-0123abcd`, 'project:日本語-0123abcd', '']) {
      const name = contextFileName(ns);
      expect(name).not.toMatch(/[/\\]/);
      expect(name.startsWith('.')).toBe(false);
      expect(name.length).toBeLessThanOrEqual(64 + 1 + 8 + 5);
      expect(name).toMatch(/^[A-Za-z0-9_.-]+$/);
    }
  });

  it('is the same for the same namespace', () => {
    expect(contextFilePath('/state/context', 'project:shop-0123abcd')).toBe(`/state/context/${contextFileName('project:shop-0123abcd')}`);
  });
});

describe('parseContextFile', () => {
  it('reads back what was written', () => {
    expect(parseContextFile(serializeContextFile(good), good.namespace)).toEqual(good);
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['an array', '[]'],
    ['another version', JSON.stringify({ ...good, version: 2 })],
    ['text that is not a string', JSON.stringify({ ...good, text: 5 })],
    ['a negative count', JSON.stringify({ ...good, omitted: -1 })],
    ['a bad date', JSON.stringify({ ...good, generatedAt: 'yesterday' })],
    ['text over the cap', JSON.stringify({ ...good, text: 'x'.repeat(MAX_CONTEXT_TEXT_CHARS + 1) })],
  ])('refuses %s', (_label, content) => {
    expect(parseContextFile(content, good.namespace)).toBeNull();
  });

  it('refuses a file of another namespace', () => {
    expect(parseContextFile(serializeContextFile(good), 'project:other-0123abcd')).toBeNull();
  });

  it('leaves room for the recall-context tags under Claude Code\'s cap', () => {
    expect(wrapRecallContext('x'.repeat(MAX_CONTEXT_TEXT_CHARS)).length).toBe(ADDITIONAL_CONTEXT_CAP);
  });
});
