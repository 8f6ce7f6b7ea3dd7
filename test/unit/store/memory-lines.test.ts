import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { MAX_LINE_BYTES, formatMemoryLine, parseMemoryLines } from '../../../src/store/memory-lines.js';
import type { LineDefaults } from '../../../src/store/memory-lines.js';

const RECORD: MemoryRecord = {
  id: '01HZX3K8J9Q2W4E6R8T0Y2U4I6',
  content: 'You MUST use pnpm, never npm.',
  type: 'golden_rule',
  importance: 1,
  namespace: 'project:shop-5e1f0c2a',
  projectRoot: '/work/shop',
  sessionId: 'sess-1',
  source: 'claude',
  embedder: 'hash:384',
  createdAt: '2024-05-01T10:00:00.000Z',
  lastSeenAt: '2024-05-03T08:30:00.123Z',
  seenCount: 3,
  supersededBy: null,
  supersededAt: null,
  provenance: null,
  status: null,
};

function defaults(over: Partial<LineDefaults> = {}): LineDefaults {
  let n = 0;
  return { now: '2025-01-02T03:04:05.000Z', newId: () => `new-${++n}`, namespace: 'global', projectRoot: null, ...over };
}

function parse(text: string, over: Partial<LineDefaults> = {}) {
  return parseMemoryLines(text, defaults(over));
}

function line(over: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...JSON.parse(formatMemoryLine(RECORD)), ...over });
}

describe('memory lines', () => {
  it('round-trips every field and a float32 vector exactly', () => {
    const vector = Float32Array.from([0.1, -0.25, 1 / 3, 1e-7]);
    const { memories, errors } = parse(`${formatMemoryLine(RECORD, vector)}\n${formatMemoryLine({ ...RECORD, id: 'b', projectRoot: null, sessionId: null })}\n`);
    expect(errors).toEqual([]);
    expect(memories[0]).toEqual({ line: 1, record: RECORD, vector });
    expect(memories[1]).toMatchObject({ line: 2, vector: null, record: { id: 'b', projectRoot: null, sessionId: null } });
  });

  it('writes snake_case field names and the embedder id on every line', () => {
    expect(Object.keys(JSON.parse(formatMemoryLine(RECORD)))).toEqual([
      'id', 'content', 'type', 'importance', 'namespace', 'project_root', 'session_id', 'source', 'embedder', 'created_at', 'last_seen_at', 'seen_count',
      'superseded_by', 'superseded_at', 'provenance', 'status',
    ]);
  });

  it('round-trips a replaced memory with the id and time of the memory that replaced it', () => {
    const replaced = { ...RECORD, supersededBy: '01HZX3K8J9Q2W4E6R8T0Y2U4I7', supersededAt: '2024-06-01T09:00:00.000Z' };
    const { memories, errors } = parse(formatMemoryLine(replaced));
    expect(errors).toEqual([]);
    expect(memories[0]?.record).toEqual(replaced);
  });

  it('reads a line without the version fields as a current memory', () => {
    const { superseded_by: _by, superseded_at: _at, provenance: _p, status: _s, ...old } = JSON.parse(formatMemoryLine(RECORD)) as Record<string, unknown>;
    const { memories, errors } = parse(JSON.stringify(old));
    expect(errors).toEqual([]);
    expect(memories[0]?.record).toMatchObject({ supersededBy: null, supersededAt: null });
  });

  it('reports every bad line by number and keeps none of a file with errors unreported', () => {
    const text = [
      line(),
      '{not json',
      line({ type: 'rule' }),
      '',
      line({ created_at: 'May 1st 2024' }),
      line({ seen_count: 0 }),
      line({ content: '   ' }),
      line({ vector: [1, 'x'] }),
      JSON.stringify(['an array']),
    ].join('\n');
    const { memories, errors } = parse(text);
    expect(memories.map((m) => m.line)).toEqual([1]);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 5, 6, 7, 8, 9]);
    expect(errors[0]).toEqual({ line: 2, message: 'is not valid JSON' });
    expect(errors[1]?.message).toMatch(/^type: /);
    expect(errors[2]?.message).toBe('created_at: "May 1st 2024" is not an ISO 8601 date and time like 2024-05-01T10:00:00Z or 2024-05-01T12:00+02:00');
  });

  it('refuses a line over 64 KB without parsing it', () => {
    const big = line({ content: 'x'.repeat(MAX_LINE_BYTES) });
    const { errors } = parse(`${line()}\n${big}`);
    expect(errors).toEqual([{ line: 2, message: `is ${Buffer.byteLength(big)} bytes; the limit is ${MAX_LINE_BYTES}` }]);
  });

  it('accepts CRLF line ends, a byte-order mark and unknown extra fields', () => {
    const { memories, errors } = parse(`\uFEFF${line({ score: 0.9 })}\r\n${line({ id: 'second' })}\r\n`);
    expect(errors).toEqual([]);
    expect(memories.map((m) => m.record.id)).toEqual([RECORD.id, 'second']);
  });

  it('rejects a timestamp that is not a real date', () => {
    expect(parse(line({ last_seen_at: '2024-02-30T00:00:00.000Z' })).errors[0]?.message).toMatch(/^last_seen_at: "2024-02-30T00:00:00.000Z" is not an ISO 8601 date and time/);
    expect(parse(line({ created_at: '2024-05-01T24:10:00Z' })).errors[0]?.message).toMatch(/^created_at: "2024-05-01T24:10:00Z" is not an ISO 8601 date/);
    expect(parse(line({ updated_at: '2024-13-01' })).errors[0]?.message).toMatch(/^updated_at: "2024-13-01" is not an ISO 8601 date/);
    expect(parse(line({ created_at: -5 })).errors[0]?.message).toMatch(/^created_at: -5 is not an ISO 8601 date/);
    expect(parse(line({ created_at: true })).errors[0]?.message).toMatch(/^created_at: true is not an ISO 8601 date/);
    expect(parse(line({ last_seen_at: { at: 1 } })).errors[0]?.message).toMatch(/^last_seen_at: \{"at":1\} is not an ISO 8601 date/);
  });

  it('reads timestamps in the usual ISO 8601 forms: without milliseconds, with an offset, a date alone, no zone as UTC', () => {
    const forms: Array<[string, string]> = [
      ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01T05:30:00.5-0430', '2024-05-01T10:00:00.500Z'],
      ['2024-05-01 10:00', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123Z'],
      ['2024-05-01', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01T10:00:00.000Z', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01t10:00:00z', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01T10:00:00.1Z', '2024-05-01T10:00:00.100Z'],
      ['2024-05-01T10:00:00.123456789Z', '2024-05-01T10:00:00.123Z'],
      ['2024-05-01 12:00:00 +02:00', '2024-05-01T10:00:00.000Z'],
      ['20240501T100000Z', '2024-05-01T10:00:00.000Z'],
      ['20240501T120000+0200', '2024-05-01T10:00:00.000Z'],
      ['20240501', '2024-05-01T00:00:00.000Z'],
    ];
    for (const [written, stored] of forms) {
      const { memories, errors } = parse(line({ created_at: written, last_seen_at: written }));
      expect(errors, written).toEqual([]);
      expect(memories[0]?.record.createdAt, written).toBe(stored);
      expect(memories[0]?.record.lastSeenAt, written).toBe(stored);
    }
  });

  it('reads a null date as one not given', () => {
    const { memories, errors } = parse(line({ created_at: null, last_seen_at: null, updated_at: null }));
    expect(errors).toEqual([]);
    expect(memories[0]?.record).toMatchObject({ createdAt: '2025-01-02T03:04:05.000Z', lastSeenAt: '2025-01-02T03:04:05.000Z' });
  });

  it('reads a Unix time in seconds or milliseconds, and updated_at as last_seen_at when that is absent', () => {
    const { memories, errors } = parse(
      [line({ created_at: 1714557600, updated_at: 1714561200000, last_seen_at: undefined }), line({ created_at: '2024-05-01', updated_at: '2024-05-02T08:00:00+02:00', last_seen_at: '2024-05-03' })].join('\n'),
    );
    expect(errors).toEqual([]);
    expect(memories[0]?.record).toMatchObject({ createdAt: '2024-05-01T10:00:00.000Z', lastSeenAt: '2024-05-01T11:00:00.000Z' });
    expect(memories[1]?.record).toMatchObject({ createdAt: '2024-05-01T00:00:00.000Z', lastSeenAt: '2024-05-03T00:00:00.000Z' });
  });

  it('reads a line with only content as a current pattern in the default namespace, stamped now with a fresh id', () => {
    const { memories, errors } = parse('{"content":"Builds run with make, not npm scripts."}\n{"content":"Second note."}', { namespace: 'project:shop-5e1f0c2a', projectRoot: '/work/shop' });
    expect(errors).toEqual([]);
    expect(memories[0]?.record).toEqual({
      id: 'new-1', content: 'Builds run with make, not npm scripts.', type: 'pattern', importance: 0.6,
      namespace: 'project:shop-5e1f0c2a', projectRoot: '/work/shop', sessionId: null, source: 'import', embedder: 'none',
      createdAt: '2025-01-02T03:04:05.000Z', lastSeenAt: '2025-01-02T03:04:05.000Z', seenCount: 1,
      supersededBy: null, supersededAt: null, provenance: null, status: null,
    });
    expect(memories[1]?.record.id).toBe('new-2');
    expect(memories[0]?.vector).toBeNull();
  });

  it('takes type, namespace, created_at and importance from a minimal line, and the importance of its type otherwise', () => {
    const { memories, errors } = parse(JSON.stringify({ content: 'Use tabs.', type: 'golden_rule', namespace: 'global', created_at: '2024-03-01T00:00:00.000Z' }), { namespace: 'project:x-1', projectRoot: '/x' });
    expect(errors).toEqual([]);
    expect(memories[0]?.record).toMatchObject({ type: 'golden_rule', importance: 1, namespace: 'global', projectRoot: null, createdAt: '2024-03-01T00:00:00.000Z', lastSeenAt: '2024-03-01T00:00:00.000Z' });
    expect(parse(JSON.stringify({ content: 'Use tabs.', importance: 0.2 })).memories[0]?.record.importance).toBe(0.2);
  });

  it('still reports a minimal line without content or with a bad optional field', () => {
    const { errors } = parse(['{"type":"pattern"}', '{"content":"x","type":"rule"}', '{"content":"x","created_at":"yesterday"}'].join('\n'));
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(errors[0]?.message).toMatch(/^content: /);
  });
});
