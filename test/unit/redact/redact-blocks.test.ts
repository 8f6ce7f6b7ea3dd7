import { describe, it, expect } from 'vitest';
import { redactPrivateKeyBlocks, redactPrivateSpans, redactionMarker } from '../../../src/redact/redact-blocks.js';

describe('redactPrivateSpans', () => {
  it('replaces a private span with a visible marker', () => {
    expect(redactPrivateSpans('a <private>b</private> c')).toEqual({ text: 'a [REDACTED:private] c', count: 1 });
  });

  it('matches the tags in any case and across lines', () => {
    expect(redactPrivateSpans('x<PRIVATE>\nline\n</Private>y').text).toBe('x[REDACTED:private]y');
  });

  it('replaces nested spans as one', () => {
    expect(redactPrivateSpans('<private>a<private>b</private>c</private>d')).toEqual({ text: '[REDACTED:private]d', count: 1 });
  });

  it('hides everything after an unclosed tag', () => {
    expect(redactPrivateSpans('keep <private>rest of the text')).toEqual({ text: 'keep [REDACTED:private]', count: 1 });
  });

  it('counts each span', () => {
    expect(redactPrivateSpans('<private>1</private> and <private>2</private>').count).toBe(2);
  });

  it('leaves text without tags and stray closing tags alone', () => {
    expect(redactPrivateSpans('plain </private> text')).toEqual({ text: 'plain </private> text', count: 0 });
  });
});

describe('redactPrivateKeyBlocks', () => {
  const block = (label: string): string => `-----BEGIN ${label}PRIVATE KEY-----\nQUJD\nREVG\n-----END ${label}PRIVATE KEY-----`;

  it.each(['', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', 'DSA '])('redacts a %sprivate key block', (label) => {
    expect(redactPrivateKeyBlocks(`a\n${block(label)}\nb`)).toEqual({ text: `a\n${redactionMarker('private-key')}\nb`, count: 1 });
  });

  it('redacts an encrypted key with its headers', () => {
    const text = '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABC\n\nQUJD\n-----END RSA PRIVATE KEY-----';
    expect(redactPrivateKeyBlocks(text).text).toBe('[REDACTED:private-key]');
  });

  it('redacts a key without an END line up to the end of its body', () => {
    expect(redactPrivateKeyBlocks('-----BEGIN PRIVATE KEY-----\nQUJD\nREVG\n\nThen I ran the tests.').text).toBe(
      '[REDACTED:private-key]\n\nThen I ran the tests.',
    );
  });

  it('does not let a cut-off key swallow the next key', () => {
    const text = `-----BEGIN PRIVATE KEY-----\nQUJD\nprose line\n${block('EC ')}`;
    expect(redactPrivateKeyBlocks(text)).toEqual({ text: '[REDACTED:private-key]\nprose line\n[REDACTED:private-key]', count: 2 });
  });

  it('leaves public keys and certificates alone', () => {
    const text = '-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----';
    expect(redactPrivateKeyBlocks(text)).toEqual({ text, count: 0 });
  });
});
