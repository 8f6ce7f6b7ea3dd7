import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { renderNotice, safeBack, withNotice } from '../../../src/ui/flash.js';
import { projectLabels } from '../../../src/ui/project-labels.js';
import { createUndoStash } from '../../../src/ui/undo-stash.js';
import { labelText, visible } from '../../../src/ui/visible-text.js';

describe('projectLabels', () => {
  it('names a project by its folder, with the hash only where two share the folder name', () => {
    const label = projectLabels(['global', 'project:shop-api-b59f609d', 'project:api-3f2a9c01', 'project:api-0000abcd', 'team:x']);
    expect(label('project:shop-api-b59f609d')).toBe('shop-api');
    expect(label('project:api-3f2a9c01')).toBe('api (3f2a9c01)');
    expect(label('project:api-0000abcd')).toBe('api (0000abcd)');
    expect(label('global')).toBe('global (all projects)');
    expect(label('team:x')).toBe('team:x');
  });
});

describe('visible', () => {
  it('escapes text and marks each hidden character where it sits', async () => {
    expect(String(await visible('<b>held for review\u202E</b>'))).toBe('&lt;b&gt;held for review<mark class="hidden-char" title="invisible or bidirectional character">\\u{202E}</mark>&lt;/b&gt;');
    expect(String(await visible('two\nlines'))).toBe('two\nlines');
    expect(String(await visible('bell\u0007'))).toContain('title="control character">\\u{7}</mark>');
  });

  it('makes a one-line label with hidden characters spelled out, cut at a length', () => {
    expect(labelText('Use\u200B pnpm\n now')).toBe('Use\\u{200B} pnpm now');
    expect(labelText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('notices', () => {
  it('adds what happened to a path, replacing an earlier notice and keeping its filters', () => {
    expect(withNotice('/review?reason=override&done=approved&n=4', 'forgot', { n: 2, undo: 'k1' })).toBe('/review?reason=override&done=forgot&n=2&undo=k1');
    expect(withNotice('/memory/m1', 'edited')).toBe('/memory/m1?done=edited');
  });

  it('goes back only inside the page', () => {
    expect(safeBack('/review?page=2')).toBe('/review?page=2');
    for (const bad of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 42, undefined]) expect(safeBack(bad)).toBe('/');
  });

  it('says only what the closed list holds, with an Undo button after a forget', async () => {
    const query = (params: Record<string, string>) => (name: string) => params[name];
    expect(renderNotice(query({ done: '<script>' }), 't')).toBe('');
    const forgot = String(await renderNotice(query({ done: 'forgot', n: '2', undo: 'key-1' }), 'tok'));
    expect(forgot).toContain('Forgot 2 memories.');
    expect(forgot).toContain('action="/undo"');
    expect(forgot).toContain('value="key-1"');
    expect(String(await renderNotice(query({ done: 'forgot', n: '1', undo: '"><b>' }), 'tok'))).not.toContain('/undo');
  });
});

describe('createUndoStash', () => {
  const record = { id: 'm1', content: 'x' } as MemoryRecord;

  it('gives the rows back once', () => {
    const stash = createUndoStash();
    const relinked = [{ id: 'm0', was: { supersededBy: 'm1', supersededAt: '2024-05-01T10:00:00.000Z' }, now: null }];
    const key = stash.keep({ records: [record], relinked });
    expect(stash.take(key)).toEqual({ records: [record], relinked });
    expect(stash.take(key)).toBeNull();
  });

  it('forgets the rows after the window', () => {
    let now = 0;
    const stash = createUndoStash(() => now, 1_000);
    const key = stash.keep({ records: [record], relinked: [] });
    now = 1_001;
    expect(stash.take(key)).toBeNull();
  });
});
