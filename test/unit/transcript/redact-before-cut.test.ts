import { describe, expect, it } from 'vitest';
import { foldSession } from '../../../src/transcript/fold-session.js';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { renderSession } from '../../../src/transcript/render-session.js';
import { CUT_MARGIN, cutToolResult, summarizeToolUse } from '../../../src/transcript/summarize-tool-use.js';
import { LIMITS } from '../../../src/transcript/transcript-limits.js';

const line = (value: unknown): string => JSON.stringify(value);
const user = (content: unknown) => line({ type: 'user', message: { role: 'user', content } });
const assistant = (content: unknown, id = 'm1') => line({ type: 'assistant', message: { id, role: 'assistant', content } });

/** Long secrets of the shapes a cut is most likely to split: their bodies must never reach the prompt, whole or in part. */
const SECRETS: Array<[string, string]> = [
  ['jwt', `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ'}.${'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'}`],
  ['github', `ghp_${'Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm'}AbCd`],
  ['anthropic', `sk-ant-api03-${'Qm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4OTA'.repeat(2)}`],
  ['pem', `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA7bq98s7d6f5g4h3j2k1l0ZXCVBNMasdfghjklqwertyuiop'.repeat(3)}\n-----END RSA PRIVATE KEY-----`],
];

/** Every run of 10 characters of a secret's body (past its well-known prefix). */
function fragments(secret: string): string[] {
  const body = secret.replace(/^(?:eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\.|ghp_|sk-ant-api03-|-----BEGIN RSA PRIVATE KEY-----\n)/, '').replace(/\n-----END[^]*$/, '');
  const out: string[] = [];
  for (let i = 0; i + 10 <= body.length; i += 5) out.push(body.slice(i, i + 10));
  return out;
}

function expectNoSecret(text: string, secret: string): void {
  for (const fragment of fragments(secret)) expect(text).not.toContain(fragment);
}

/** The places a secret can stand, each with `pad` characters of text before it. */
const PLACES: Array<[string, (pad: string, secret: string) => string[]]> = [
  ['what the user typed', (pad, s) => [user(`${pad} ${s} done`)]],
  ['what the user pasted', (pad, s) => [user(`see:\n\n${Array.from({ length: 4 }, (_, i) => `2026-01-01T00:00:0${i}Z ERROR ${pad} ${i === 2 ? s : 'x'}`).join('\n')}\n\nwhy?`)]],
  ['what the assistant said', (pad, s) => [user('go'), assistant([{ type: 'text', text: `${pad} ${s} done` }])]],
  ['a tool input', (pad, s) => [user('go'), assistant([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `echo ${pad} ${s}` } }])]],
  ['a tool output', (pad, s) => [user('go'), assistant([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat x' } }]), user([{ type: 'tool_result', tool_use_id: 't1', content: `${pad} ${s} done` }])]],
  ['a compaction summary', (pad, s) => [line({ type: 'user', isCompactSummary: true, message: { role: 'user', content: `${pad} ${s} done` } }), user('go on')]],
];

describe('redaction happens before any cut', () => {
  // Offsets that put the secret across each limit a cut is made at, and across the budget itself.
  const limits = [LIMITS.userText, LIMITS.pastedExcerpt, LIMITS.assistantText, LIMITS.assistantFinal, LIMITS.toolOutput, LIMITS.compaction, 160];
  const offsets = [...new Set(limits.flatMap((limit) => Array.from({ length: 24 }, (_, k) => Math.max(0, limit - 200 + k * 9))))];

  for (const [kind, secret] of SECRETS) {
    for (const [place, build] of PLACES) {
      it(`lets no part of a ${kind} secret in ${place} through, at every offset around every cut`, () => {
        for (const offset of offsets) {
          const pad = 'word '.repeat(Math.ceil(offset / 5)).slice(0, offset);
          const events = build(pad, secret).flatMap(parseTranscriptLine);
          const entries = foldSession(events);
          for (const budget of [300, 1_000, 12_000]) {
            const { text } = renderSession(entries, budget);
            expectNoSecret(text, secret);
          }
        }
      });
    }
  }

  it('redacts a token that the result limit would cut in half', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const text = `${'x'.repeat(290)} ${token}`;
    const cut = cutToolResult(text, 300);
    expect(cut).not.toContain('ghp_A1b2');
    expect(cut).toContain('[REDACTED:');
  });

  it('redacts secrets in one-line tool summaries', () => {
    const summary = summarizeToolUse('Bash', { command: 'curl -H "Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789" https://x' });
    expect(summary).not.toContain('sk-ant-api03-abcdefghij');
    expect(summary).toMatch(/^\[tool Bash: curl/);
  });
});

describe('a long tool result, of which only the ends are redacted', () => {
  const filler = (n: number): string => 'INFO request served in 12 ms path=/api/orders status=200\n'.repeat(Math.ceil(n / 58)).slice(0, n);

  for (const [kind, secret] of SECRETS) {
    it(`lets no part of a ${kind} secret through wherever it stands in a 40 KB result`, () => {
      const total = 40_000;
      for (let offset = 0; offset < total; offset += 997) {
        const raw = `${filler(offset)} ${secret} ${filler(total - offset)}`;
        expectNoSecret(cutToolResult(raw, LIMITS.toolOutput), secret);
      }
      // Across the ends of what the cut keeps and of what is redacted, character by character.
      for (const around of [LIMITS.toolOutput, LIMITS.toolOutput + CUT_MARGIN, total - LIMITS.toolOutput - CUT_MARGIN, total - LIMITS.toolOutput]) {
        for (let offset = Math.max(0, around - secret.length - 4); offset < around + 4; offset += 1) {
          const raw = `${filler(offset)} ${secret} ${filler(total - offset)}`;
          expectNoSecret(cutToolResult(raw, LIMITS.toolOutput), secret);
        }
      }
    });
  }

  it('keeps a cut of the same shape as a short result: head, marker with the whole length, tail', () => {
    const raw = `first line\n${filler(30_000)}last line`;
    const cut = cutToolResult(raw, LIMITS.toolOutput);
    expect(cut.startsWith('first line')).toBe(true);
    expect(cut.endsWith('last line')).toBe(true);
    expect(cut).toMatch(/ \[…[\d,]+ chars…\] /);
    expect(cut.length).toBeLessThanOrEqual(LIMITS.toolOutput);
  });
});
