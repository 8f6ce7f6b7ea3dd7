import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/redact/redact-secrets.js';
import { foldSession } from '../../../src/transcript/fold-session.js';
import { classifyRun, type ToolRun } from '../../../src/transcript/mark-outcomes.js';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { renderSession } from '../../../src/transcript/render-session.js';
import { sourceWords } from '../../../src/transcript/attribute-source.js';
import { CUT_MARGIN, cutToolResult } from '../../../src/transcript/summarize-tool-use.js';
import { ToolOutput } from '../../../src/transcript/tool-output.js';
import { readCorpus } from '../../support/redaction-corpus.js';

const { secrets, lookalikes } = readCorpus();
const heldout = readCorpus('heldout-');
const SECRET_CASES = [...secrets, ...heldout.secrets];
const TEXTS = [...SECRET_CASES, ...lookalikes, ...heldout.lookalikes].map((c) => c.text);

const LOG = '2026-01-01T00:00:00Z INFO request served in 12 ms path=/api/orders status=200\n';
/** `text` on lines of its own, `offset` characters into a tool output of `length` characters of log lines. */
function placed(text: string, offset: number, length: number): string {
  const filler = LOG.repeat(Math.ceil(length / LOG.length) + 1);
  return `${filler.slice(0, offset)}\n${text}\n${filler.slice(0, Math.max(0, length - offset))}`.trim();
}

/** Offsets that put a text at the head, across the head's cut, in the middle, across the tail's cut and at the tail. */
function offsets(length: number): number[] {
  return [0, 150, 170, 200, 290, 300, 320, 300 + CUT_MARGIN - 40, Math.floor(length / 2), length - 300 - CUT_MARGIN - 20, length - 320, length - 200, length - 120, length - 60, length];
}

describe('ToolOutput', () => {
  it('makes, when first read, exactly the snippet cutToolResult makes at once, wherever a secret or look-alike stands', () => {
    let checked = 0;
    for (const length of [120, 300, 2_000, 2_400, 9_000]) {
      for (const offset of offsets(length)) {
        for (const text of TEXTS.filter((_t, i) => i % 7 === offset % 7)) {
          const raw = placed(text, Math.max(0, Math.min(length, offset)), length);
          expect(ToolOutput.deferred(raw, 300).text).toBe(cutToolResult(raw, 300));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('holds what a snippet is made from only until it is made', () => {
    const output = ToolOutput.deferred(placed('token=ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5', 10, 9_000), 300);
    expect(output.held).toBeGreaterThan(2 * CUT_MARGIN);
    expect(output.text).toContain('[REDACTED:');
    expect(output.held).toBe(0);
    expect(output.empty).toBe(false);
  });

  it('rests on what redaction does: it puts a marker in place of each span it takes and adds no other text', () => {
    // What the outcome check reads before a snippet is made (mark-outcomes.ts) holds only if this does.
    for (const text of TEXTS) {
      const redacted = redactSecrets(text).text;
      let from = 0;
      for (const piece of redacted.split(/\[REDACTED:[a-z0-9-]+\]/)) {
        const at = text.indexOf(piece, from);
        expect(at, `${JSON.stringify(piece)} of ${JSON.stringify(redacted)}`).toBeGreaterThanOrEqual(0);
        from = at + piece.length;
      }
    }
  });
});

/** The snippet made at once, always searched: how outcomes were read before snippets were made lazily. */
const searched = (text: string): ToolOutput => Object.assign(ToolOutput.of(text), { mayHold: () => true });

describe('outcomes read before a snippet is made', () => {
  const ENDINGS = [
    '',
    'Exit code 1',
    'Exit code 2\nls: cannot access',
    'Tests: 1 failed, 45 passed, 46 total',
    'FAIL src/x.test.ts',
    "The user doesn't want to proceed with this tool use.",
    'npm ERR! code ELIFECYCLE',
    'error TS2322: Type string is not assignable',
    'process exited with code 2',
    'Traceback (most recent call last):\n  File "x.py", line 1',
    'thread main panicked at src/main.rs:2',
    'bash: foo: command not found',
    '87 tests, 0 failures',
  ];
  const RUNS: Array<Omit<ToolRun, 'output'>> = [
    { name: 'Read', target: 'src/x.ts', isError: false },
    { name: 'Bash', command: 'npm test', isError: false },
    { name: 'Bash', command: 'make deploy', isError: false },
    { name: 'Bash', command: 'ls', isError: true },
  ];

  it('are the ones read from the snippet, for every ending, secret and look-alike before or after it', () => {
    let checked = 0;
    for (const ending of ENDINGS) {
      for (const [i, text] of TEXTS.entries()) {
        if (i % 5 !== 0) continue;
        for (const raw of [`${ending}\n${text}`, `${text}\n${ending}`, placed(`${text}\n${ending}`, 100, 4_000), placed(`${ending} ${text}`, 3_900, 4_000)]) {
          const made = cutToolResult(raw.trim(), 300);
          for (const run of RUNS) {
            expect(classifyRun({ ...run, output: ToolOutput.deferred(raw.trim(), 300) })).toEqual(classifyRun({ ...run, output: searched(made) }));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  it('still read an outcome a long result tells only past a secret that redaction shortens', () => {
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA7bq98s7d6f5g4h3j2k1l0ZXCVBNMasdfghjklqwertyuiop\n'.repeat(12)}-----END RSA PRIVATE KEY-----`;
    const raw = `${key}\nExit code 3 is what the deploy script returned; process exited with code 3\n${LOG.repeat(80)}`;
    const run = { name: 'Bash', command: 'make deploy', isError: false };
    expect(classifyRun({ ...run, output: ToolOutput.deferred(raw, 300) })).toEqual(classifyRun({ ...run, output: searched(cutToolResult(raw, 300)) }));
  });
});

describe('a secret in a tool output read lazily', () => {
  const line = (value: unknown): string => JSON.stringify(value);
  // Cases the redactor catches on their own (the corpus test scores the rest), with secrets long enough to be told apart.
  const SECRET_BODIES = SECRET_CASES.filter((c) => c.secrets.every((s) => s.length >= 12 && !redactSecrets(c.text).text.includes(s))).filter((_c, i) => i % 3 === 0);

  it('never reaches the prompt, the render stats or the source words, at the head, the cut, the middle or the tail', () => {
    for (const c of SECRET_BODIES) {
      for (const offset of offsets(6_000)) {
        const raw = placed(c.text, Math.max(0, offset), 6_000);
        const events = [
          line({ type: 'user', message: { role: 'user', content: 'run it' } }),
          line({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make deploy' } }] } }),
          line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: raw }] } }),
        ].flatMap(parseTranscriptLine);
        const entries = foldSession(events);
        for (const budget of [400, 12_000]) {
          const { text, stats } = renderSession(entries, budget);
          for (const secret of c.secrets) expect(text).not.toContain(secret);
          expect(stats.fullChars).toBeGreaterThan(0);
        }
        const words = [...sourceWords(entries).values()].flatMap((set) => [...set]).join(' ');
        for (const secret of c.secrets) expect(words).not.toContain(secret.toLowerCase());
      }
    }
  });
});
