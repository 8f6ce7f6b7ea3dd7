import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { URL_CREDENTIALS } from '../../src/redact/redact-secrets.js';
import { SECRET_ASSIGNMENT } from '../../src/redact/redact-assignments.js';
import { replaceNearHints, type HintedPattern } from '../../src/redact/replace-near-hints.js';

/** Every match with its place and groups, so two searches can be compared match for match. */
const show = (groups: readonly (string | undefined)[], at: number): string => `<${at}:${groups.map((g) => g ?? '~').join('|')}>`;

function groupCount(pattern: RegExp): number {
  return new RegExp(`${pattern.source}|`).exec('')!.length - 1;
}

/** What a plain global replace gives: the reference the hinted search must equal. */
function plainReplace(text: string, search: HintedPattern): string {
  const n = groupCount(search.pattern);
  return text.replace(search.pattern, (...args: unknown[]) => show(args.slice(0, n + 1) as (string | undefined)[], args[n + 1] as number));
}

function hintedReplace(text: string, search: HintedPattern): string {
  return replaceNearHints(text, search, (m) => show(m, m.index));
}

/** Pieces that sit at the edges of both patterns: keys of every length, words glued together, schemes, separators, quotes. */
const piece = fc.oneof(
  fc.constantFrom(
    'password', 'PASSWD', 'passphrase', 'secret', 'secret_key', 'secretkey', 'Secret-Key', 'token', 'api_key', 'apikey', 'api-KEY',
    'access_key', 'private_key', 'client_secret', 'signing_key', 'encryption_key', 'encryption-key', 'secretoken', 'passtoken',
    'keykey', 'key', 'pass', 'monkey', 'db_', 'x-', '_', '-', 'export ', '=', ':', ': ', ' = ', '\t', ' ', '\n', '"', "'", '`',
    ',', '.', ')', '$HOME', '{{x}}', 'string', '[REDACTED:token]', '://', 'https://', 'git+ssh://', 'postgres://', 'HTTP://',
    'a.b-c+d://', 'user', ':', '@', '@host', '/', '<', '>', 'é', '\u00a0', 'ſecret',
  ),
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', '_', '-', '+', '.'), minLength: 1, maxLength: 70 }),
  // Long key runs and schemes, around the longest key prefix (40) and scheme (31) the patterns allow.
  fc.string({ unit: fc.constantFrom('k', 'Q', '7', '_', '-'), minLength: 20, maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('s', 'H', '1', '+', '.', '-'), minLength: 20, maxLength: 40 }).map((scheme) => `s${scheme}://u:p@h`),
  fc.string({ maxLength: 8 }),
);

const soup = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

describe('replaceNearHints', () => {
  it('finds exactly the matches of a plain global replace, for the URL credential pattern', () => {
    fc.assert(
      fc.property(soup, (text) => {
        expect(hintedReplace(text, URL_CREDENTIALS)).toBe(plainReplace(text, URL_CREDENTIALS));
      }),
      { numRuns: 4000 },
    );
  });

  it('finds exactly the matches of a plain global replace, for the secret assignment pattern', () => {
    fc.assert(
      fc.property(soup, (text) => {
        expect(hintedReplace(text, SECRET_ASSIGNMENT)).toBe(plainReplace(text, SECRET_ASSIGNMENT));
      }),
      { numRuns: 4000 },
    );
  });

  it('matches like a plain replace at the edges: a 40-character key prefix, glued words, a scheme after a plus sign', () => {
    const cases = [
      `${'k'.repeat(40)}secret=abc123`,
      `${'k'.repeat(41)}secret=abc123`,
      `${'k'.repeat(40)}encryption_key: "v4lue"`,
      'secretoken=abc123 and passtoken = zz9',
      'git+ssh://me:pw1@host and x.y://a:b@c',
      `${'a'.repeat(31)}://u:p@h ${'a'.repeat(30)}://u:p@h`,
      `token=${'v'.repeat(600)}token=second`,
    ];
    for (const text of cases) {
      expect(hintedReplace(text, SECRET_ASSIGNMENT)).toBe(plainReplace(text, SECRET_ASSIGNMENT));
      expect(hintedReplace(text, URL_CREDENTIALS)).toBe(plainReplace(text, URL_CREDENTIALS));
    }
  });

  it('returns the text itself when nothing matches', () => {
    const text = 'no secrets here, only a key word and a token mention';
    expect(replaceNearHints(text, SECRET_ASSIGNMENT, () => 'X')).toBe(text);
  });
});
