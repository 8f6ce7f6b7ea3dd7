import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstBadField, parseJsonObject, parseStdinObject, pickString } from '../../../src/core/read-json-object.js';
import { validateObservation } from '../../../src/endless/observation.js';
import { parseJob } from '../../../src/queue/job.js';

const JOB = { version: 1, id: 'j1', sessionId: null, transcriptPath: '/t.jsonl', cwd: null, agent: 'claude', reason: null, enqueuedAt: '2026-01-01T00:00:00.000Z', attempts: 0, notBefore: null, lastError: null };

describe('parseJsonObject', () => {
  it.each([
    ['', 'empty'],
    [' \n', 'empty'],
    ['{', 'not_json'],
    ['\uFEFF{}', 'not_json'],
    ['[1,2]', 'not_object'],
    ['null', 'not_object'],
    ['"text"', 'not_object'],
    ['3', 'not_object'],
  ])('refuses %j as %s', (text, failure) => {
    expect(parseJsonObject(text)).toEqual({ ok: false, failure });
  });

  it('answers the object itself, unknown fields kept', () => {
    expect(parseJsonObject(' {"a": 1, "b": [2]} ')).toEqual({ ok: true, record: { a: 1, b: [2] } });
  });
});

describe('parseStdinObject', () => {
  it('words each refusal for the hook log', () => {
    expect(parseStdinObject('')).toEqual({ ok: false, problem: 'empty stdin' });
    expect(parseStdinObject('{"cut')).toEqual({ ok: false, problem: 'stdin is not JSON (or was cut at the size cap)' });
    expect(parseStdinObject('[]')).toEqual({ ok: false, problem: 'stdin JSON is not an object' });
  });
});

describe('pickString', () => {
  it('takes the first key holding a non-blank string, skipping blanks and other types', () => {
    expect(pickString({ a: ' ', b: 7, c: 'x', d: 'y' }, 'a', 'b', 'c', 'd')).toBe('x');
    expect(pickString({ a: null, b: ['x'] }, 'a', 'b')).toBeNull();
  });

  it('does not read inherited members as fields', () => {
    expect(pickString({}, 'toString', 'constructor')).toBeNull();
  });
});

describe('firstBadField', () => {
  it('names the first field missing or of another type, and checks exact values', () => {
    const rules = { version: 1, id: 'string', attempts: 'number', items: 'array' } as const;
    expect(firstBadField({ version: 1, id: 'x', attempts: 0, items: [] }, rules)).toBeNull();
    expect(firstBadField({ version: 2, id: 'x', attempts: 0, items: [] }, rules)).toBe('version');
    expect(firstBadField({ version: 1, id: 3, attempts: 0, items: [] }, rules)).toBe('id');
    expect(firstBadField({ version: 1, id: 'x', attempts: '0', items: [] }, rules)).toBe('attempts');
    expect(firstBadField({ version: 1, id: 'x', attempts: 0, items: {} }, rules)).toBe('items');
    expect(firstBadField({ version: 1, id: 'x' }, rules)).toBe('attempts');
  });
});

describe('the validator behind job files and observations', () => {
  it('refuses every job file the queue refused before', () => {
    const bad = [
      '', 'not json', '[]', 'null', '"job"',
      JSON.stringify({ ...JOB, version: 2 }),
      JSON.stringify({ ...JOB, version: '1' }),
      JSON.stringify({ ...JOB, id: 7 }),
      JSON.stringify({ ...JOB, transcriptPath: undefined }),
      JSON.stringify({ ...JOB, transcriptPath: null }),
      JSON.stringify({ ...JOB, attempts: '0' }),
      JSON.stringify([JOB]),
    ];
    for (const text of bad) expect(parseJob(text)).toBeNull();
    expect(parseJob(JSON.stringify(JOB))).toEqual(JOB);
  });

  it('refuses every observation refused before: no object, a title that is blank or not text, no narrative nor facts', () => {
    expect(validateObservation(['x'])).toEqual({ ok: false, problem: 'not a JSON object' });
    expect(validateObservation({ title: 42, narrative: 'n', facts: [] })).toEqual({ ok: false, problem: 'no title' });
    expect(validateObservation({ title: ' \n', narrative: 'n', facts: [] })).toEqual({ ok: false, problem: 'no title' });
    expect(validateObservation({ title: 't', narrative: ['n'], facts: 'f' })).toEqual({ ok: false, problem: 'neither narrative nor facts' });
  });

  it('accepts a job file exactly when it is an object with version 1, a string id and transcriptPath, and a number of attempts', () => {
    const field = fc.oneof(fc.constant(undefined), fc.constant(1), fc.constant('x'), fc.constant(null), fc.integer(), fc.string(), fc.jsonValue({ maxDepth: 1 }));
    const key = fc.constantFrom('version', 'id', 'transcriptPath', 'attempts');
    const candidate = fc.oneof(
      fc.record({ version: field, id: field, transcriptPath: field, attempts: field }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 2 }),
      // A whole job with one field changed (or removed): the refusals near the accepted shape.
      fc.tuple(key, field).map(([name, value]) => ({ ...JOB, [name]: value })),
    );
    fc.assert(
      fc.property(candidate, (value) => {
        const v = value as Record<string, unknown> | null;
        const isJob = typeof v === 'object' && v !== null && !Array.isArray(v)
          && v.version === 1 && typeof v.id === 'string' && typeof v.transcriptPath === 'string' && typeof v.attempts === 'number';
        expect(parseJob(JSON.stringify(value) ?? '') !== null).toBe(isJob);
      }),
      { numRuns: 2000 },
    );
  });
});
