import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { renderNotice, safeBack, withNotice } from '../../../src/ui/flash.js';
import { projectLabels } from '../../../src/ui/project-labels.js';
import { createUndoStash } from '../../../src/ui/undo-stash.js';
import { whyHeld } from '../../../src/ui/page-review.js';
import { labelText, spellHidden, unspellHidden, visible } from '../../../src/ui/visible-text.js';

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
    expect(labelText('bom\uFEFF here\uFEFF')).toBe('bom\\u{FEFF} here\\u{FEFF}');
    expect(labelText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('spells hidden characters out for the edit box and back again on save, the same text unchanged', () => {
    const stored = 'Keep \u2066left\u2069 and\u200B tag \u{E0041}\n second line\tand \\u{41} as typed\u202E';
    const box = spellHidden(stored);
    expect(box).toBe('Keep \\u{2066}left\\u{2069} and\\u{200B} tag \\u{E0041}\n second line\tand \\u{41} as typed\\u{202E}');
    expect(unspellHidden(box)).toBe(stored);
    // Deleting a spelling deletes its character; a spelling of a plain letter stays as typed.
    expect(unspellHidden(box.replace('\\u{202E}', ''))).toBe(stored.replace('\u202E', ''));
    expect(unspellHidden('\\u{110000} \\u{A}')).toBe('\\u{110000} \\u{A}');
    // A spelling the text held as typed stays text, not the character it names, with or without a backslash before it.
    const typed = 'Escape RTL overrides as \\u{202E} and \\\\u{200B} in logs\u202E';
    expect(spellHidden(typed)).toBe('Escape RTL overrides as \\\\u{202E} and \\\\\\u{200B} in logs\\u{202E}');
    expect(unspellHidden(spellHidden(typed))).toBe(typed);
    // Without a hidden character the box holds the text as it is, spellings as typed included.
    expect(spellHidden('Write \\u{202E} out')).toBe('Write \\u{202E} out');
  });

  it('counts combining marks stacked past three on one letter, in the page and in labels', async () => {
    const zalgo = `Z${'\u0301'.repeat(10)}ap`;
    expect(String(await visible(zalgo))).toBe(`Z${'\u0301'.repeat(3)}<mark class="hidden-char" title="combining marks stacked on the letter before">+7 combining marks</mark>ap`);
    expect(labelText(zalgo)).toBe(`Z${'\u0301'.repeat(3)}[+7 combining marks]ap`);
    expect(String(await visible('Tiê\u0301ng Viê\u0323\u0302t'))).toBe('Tiê\u0301ng Viê\u0323\u0302t');
  });

  it('spells out hidden characters of a project folder name in its label', () => {
    const label = projectLabels(['project:shop\u202Eevil-1234abcd', 'project:x\u200By-00000000']);
    expect(label('project:shop\u202Eevil-1234abcd')).toBe('shop\\u{202E}evil');
    expect(label('project:x\u200By-00000000')).toBe('x\\u{200B}y');
    expect(label('team:\u2066x')).toBe('team:\\u{2066}x');
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

describe('whyHeld', () => {
  const held = { id: 'h1', content: 'Use npm.', status: 'quarantined' } as MemoryRecord;

  it('says what the screen finds and links the memories a held change wants to replace', async () => {
    expect(String(await whyHeld(held, ['override']))).toBe('tells the agent to ignore its instructions');
    const proposal = String(await whyHeld({ ...held, wantsToReplace: ['g1', 'g2'] }, []));
    expect(proposal).toBe('wants to replace <a href="/memory/g1">g1</a>, <a href="/memory/g2">g2</a>');
    expect(String(await whyHeld({ ...held, wantsToReplace: ['g1'] }, ['registry']))).toBe('changes a package registry or a git remote; wants to replace <a href="/memory/g1">g1</a>');
  });

  it('says so when the screen finds nothing, rather than nothing', async () => {
    expect(String(await whyHeld(held, []))).toBe('held when it was stored; the screen finds nothing in it now');
  });
});
