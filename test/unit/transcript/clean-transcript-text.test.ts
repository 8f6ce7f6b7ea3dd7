import { describe, it, expect } from 'vitest';
import { cleanTranscriptText, normaliseWhitespace } from '../../../src/transcript/clean-transcript-text.js';
import {
  RECALL_CONTEXT_CLOSE_TAG,
  RECALL_CONTEXT_OPEN_TAG,
  wrapRecallContext,
} from '../../../src/transcript/recall-markers.js';

describe('cleanTranscriptText', () => {
  it('removes every system-reminder block, across lines', () => {
    const text = 'a<system-reminder>\none\n</system-reminder>b<system-reminder>two</system-reminder>c';
    expect(cleanTranscriptText(text)).toBe('abc');
  });

  it('removes a system-reminder that carries attributes', () => {
    expect(cleanTranscriptText('keep <system-reminder source="hook">drop</system-reminder>')).toBe('keep');
  });

  it('drops the rest of the block after an unclosed system-reminder', () => {
    expect(cleanTranscriptText('keep this\n<system-reminder>\ninjected and cut off')).toBe('keep this');
  });

  it('removes context wrapped by wrapRecallContext', () => {
    expect(cleanTranscriptText(`Question?\n${wrapRecallContext('- Use pnpm\n- Never push to main')}`)).toBe('Question?');
  });

  it('drops the rest of the block after an unclosed recall-context tag', () => {
    expect(cleanTranscriptText(`Start ${RECALL_CONTEXT_OPEN_TAG}\n- a memory that was cut short`)).toBe('Start');
  });

  it('removes a stray closing recall-context tag', () => {
    expect(cleanTranscriptText(`text ${RECALL_CONTEXT_CLOSE_TAG} more`)).toBe('text  more');
  });

  it('removes terminal colour codes', () => {
    expect(cleanTranscriptText('\u001b[1mbold\u001b[22m and \u001b[31mred\u001b[0m')).toBe('bold and red');
  });

  it('keeps the text of an unclosed command-name tag', () => {
    expect(cleanTranscriptText('<command-name>/review now')).toBe('/review now');
  });

  it('leaves ordinary angle-bracket text alone', () => {
    expect(cleanTranscriptText('Use Array<string> and <div> here.')).toBe('Use Array<string> and <div> here.');
  });

  it('finishes on many unclosed tags (no backtracking without end; speed lives in bench/)', () => {
    const text = '<system-reminder x>'.repeat(50_000) + '<command-name>'.repeat(50_000);
    expect(typeof cleanTranscriptText(text)).toBe('string');
  });
});

describe('normaliseWhitespace', () => {
  it('turns CRLF into LF, trims line ends and collapses blank runs', () => {
    expect(normaliseWhitespace('  a  \r\nb\t\n\n\n\nc  ')).toBe('a\nb\n\nc');
  });

  it('finishes on a long run of spaces', () => {
    expect(normaliseWhitespace(`a${' '.repeat(200_000)}b`)).toBe(`a${' '.repeat(200_000)}b`);
  });
});

describe('nested injected spans', () => {
  it('drops everything inside a system-reminder that holds another one', () => {
    const text = 'before <system-reminder>a<system-reminder>b</system-reminder>SECRET</system-reminder> after';
    expect(cleanTranscriptText(text)).toBe('before  after');
  });
});
