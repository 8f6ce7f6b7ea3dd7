import { describe, expect, it } from 'vitest';
import { measureConversation, measureRecord, measureResume } from '../../../src/endless/measure-conversation.js';
import { resumeChain } from '../../../src/endless/resume-chain.js';

type Json = Record<string, unknown>;

const user = (uuid: string, parentUuid: string | null, content: unknown, extra: Json = {}): Json => ({ type: 'user', uuid, parentUuid, message: { role: 'user', content }, ...extra });
const assistant = (uuid: string, parentUuid: string | null, text: string, extra: Json = {}): Json => ({ type: 'assistant', uuid, parentUuid, message: { role: 'assistant', content: [{ type: 'text', text }] }, ...extra });
const boundary = (uuid: string, logicalParentUuid: string): Json => ({ type: 'system', subtype: 'compact_boundary', uuid, parentUuid: null, logicalParentUuid, content: 'Conversation compacted' });

describe('resumeChain', () => {
  it('follows the newest message back by parentUuid to the last compaction, summary included', () => {
    const records = [
      user('u1', null, 'before the compaction'),
      assistant('a1', 'u1', 'old answer'),
      boundary('b1', 'a1'),
      user('s1', 'b1', 'This session is being continued... Summary: ...', { isCompactSummary: true }),
      user('u2', 's1', 'next question'),
      assistant('x1', 'u2', 'a subagent line', { isSidechain: true }),
      assistant('a2', 'u2', 'an answer the user rewound'),
      assistant('a3', 'u2', 'the answer kept'),
      { type: 'system', subtype: 'turn_duration', uuid: 't1', parentUuid: 'a3' },
    ];
    expect(resumeChain(records)).toEqual([3, 4, 7]);
  });

  it('loads the other calls of a parallel answer and all their results, which hang off the chain', () => {
    const call = (uuid: string, parent: string, id: string): Json => ({ type: 'assistant', uuid, parentUuid: parent, message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: {} }] } });
    const result = (uuid: string, parent: string, id: string): Json => ({ type: 'user', uuid, parentUuid: parent, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] } });
    const records = [
      user('u1', null, 'read three files'),
      call('c1', 'u1', 't1'),
      call('c2', 'c1', 't2'),
      call('c3', 'c2', 't3'),
      result('r1', 'c1', 't1'),
      result('r2', 'c2', 't2'),
      { type: 'progress', uuid: 'p1', parentUuid: 'c3' },
      result('r3', 'c3', 't3'),
      assistant('a1', 'r3', 'done'),
    ];
    expect(resumeChain(records)).toEqual([0, 1, 2, 3, 4, 5, 7, 8]);
  });

  it('stops at a compaction boundary that still names its parent', () => {
    const records = [user('u1', null, 'old'), { ...boundary('b1', 'u1'), parentUuid: 'u1' }, user('s1', 'b1', 'summary', { isCompactSummary: true }), assistant('a1', 's1', 'new')];
    expect(resumeChain(records)).toEqual([2, 3]);
  });

  it('takes every line after the last boundary when the transcript has no uuids', () => {
    const records = [{ type: 'user', message: { role: 'user', content: 'a' } }, { type: 'system', subtype: 'compact_boundary' }, { type: 'user', message: { role: 'user', content: 'b' } }];
    expect(resumeChain(records)).toEqual([2]);
  });

  it('is empty for a transcript without messages', () => {
    expect(resumeChain([{ type: 'file-history-snapshot' }])).toEqual([]);
  });
});

describe('measuring what a resume sends', () => {
  const png = 'iVBORw0KGgo'.repeat(100);
  const pdf = 'JVBERi0xLjQK'.repeat(50);

  it('counts images and documents by their base64 payload, in messages and in tool results', () => {
    const record = user('u1', null, [
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'page 1' }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } }] },
    ]);
    expect(measureRecord(record)).toEqual({ chars: 4 + png.length + 6 + pdf.length, toolResultChars: 6 + pdf.length, mediaChars: png.length + pdf.length });
  });

  it('measures the resumed chain only, beside the whole file', () => {
    const records = [user('u1', null, 'x'.repeat(1000)), boundary('b1', 'u1'), user('s1', 'b1', 'summary', { isCompactSummary: true }), assistant('a1', 's1', 'ok')];
    expect(measureConversation(records).chars).toBe(1000 + 7 + 2);
    expect(measureResume(records)).toEqual({ chars: 7 + 2, toolResultChars: 0, mediaChars: 0 });
  });
});
