import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactWithoutWindows } from '../../src/redact/redact-secrets.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters from `alphabet`, at least one of them a digit when `digit` is set. */
function token(alphabet: string, minLength: number, maxLength: number, digit = false): fc.Arbitrary<string> {
  return fc
    .tuple(fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength }), fc.nat(9))
    .map(([s, d]) => (digit && !/\d/.test(s) ? `${s.slice(0, -1)}${d}` : s));
}

/** A secret as it appears in text, and the part of it that must never survive redaction. */
interface Injected {
  text: string;
  secret: string;
}

const secret = (build: (value: string) => string) => (value: string): Injected => ({ text: build(value), secret: value });

const injected: fc.Arbitrary<Injected> = fc.oneof(
  token(`${ALNUM}_-`, 20, 60).map((v) => ({ text: `sk-ant-${v}`, secret: `sk-ant-${v}` })),
  token(ALNUM, 20, 60, true).map((v) => ({ text: `sk-proj-${v}`, secret: v })),
  token(ALNUM, 36, 40).map((v) => ({ text: `ghp_${v}`, secret: v })),
  token(`${ALNUM}_-`, 20, 40).map((v) => ({ text: `glpat-${v}`, secret: v })),
  token(`${ALNUM}-`, 12, 40).map((v) => ({ text: `xoxb-${v}`, secret: v })),
  token(ALNUM, 24, 32).map((v) => ({ text: `sk_live_${v}`, secret: v })),
  token(`${ALNUM}_-`, 35, 35).map((v) => ({ text: `AIza${v}`, secret: v })),
  token('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16, 16).map((v) => ({ text: `AKIA${v}`, secret: v })),
  fc.tuple(token(`${ALNUM}_-`, 10, 30), token(`${ALNUM}_-`, 10, 30), token(`${ALNUM}_-`, 10, 30)).map(([a, b, c]) => ({ text: `eyJ${a}.${b}.${c}`, secret: `${a}.${b}.${c}` })),
  token(`${ALNUM}._~+/-`, 24, 60, true).map(secret((v) => `Authorization: Bearer ${v}`)),
  token(ALNUM, 10, 24, true).map(secret((v) => `postgres://admin:${v}@db.example.com:5432/app`)),
  token(`${ALNUM}/+`, 40, 40).map(secret((v) => `aws_secret_access_key = ${v}`)),
  fc.tuple(fc.constantFrom('password', 'DB_PASSWORD', 'api_key', 'clientSecret', 'GITHUB_TOKEN'), fc.constantFrom('=', ': ', ' = '), fc.constantFrom('', '"', "'"), token(`${ALNUM}!#%&*@^`, 12, 30, true))
    .map(([key, sep, q, v]) => ({ text: `${key}${sep}${q}${v}${q}`, secret: v })),
  fc.array(token(`${ALNUM}+/`, 64, 64), { minLength: 1, maxLength: 4 }).map((body) => ({
    text: `-----BEGIN RSA PRIVATE KEY-----\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----`,
    secret: body[0]!,
  })),
  token(ALNUM, 12, 30).map(secret((v) => `<private>my ${v} notes</private>`)),
);

/** Ordinary text around the secrets, with no characters that could glue onto a secret. */
const prose = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('Run the deploy with', 'token count: 3', 'the password field is required', 'password: string', ''));
const separator = fc.constantFrom(' ', '\n', '\t', ' \n ');

const textWithSecrets = fc
  .array(fc.tuple(prose, separator, injected, separator), { minLength: 1, maxLength: 5 })
  .map((parts) => ({
    text: parts.map(([p, s1, i, s2]) => `${p}${s1}${i.text}${s2}`).join(''),
    secrets: parts.map(([, , i]) => i.secret),
  }));

/** Text that looks half like secrets: keys, separators, prefixes, quotes, markers. */
const secretSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom('password', 'token', 'api_key', '=', ': ', '"', "'", 'sk-', 'ghp_', 'Bearer ', 'https://u:', '@h/', '<private>', '</private>', '[REDACTED:token]', '-----BEGIN PRIVATE KEY-----', '\n', ' ', ',', ')', 'eyJ', '.'),
      token(ALNUM, 1, 45),
    ),
    { maxLength: 25 },
  )
  .map((parts) => parts.join(''));

describe('redactSecrets under fuzzing', () => {
  it('never lets an injected secret survive', () => {
    fc.assert(
      fc.property(textWithSecrets, ({ text, secrets }) => {
        const { text: out, count } = redactSecrets(text);
        for (const s of secrets) expect(out).not.toContain(s);
        expect(count).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 1500 },
    );
  });

  it('changes nothing and counts nothing when run again on its own output', () => {
    fc.assert(
      fc.property(fc.oneof(textWithSecrets.map((t) => t.text), secretSoup, fc.string({ maxLength: 200 })), (text) => {
        const once = redactSecrets(text);
        const twice = redactSecrets(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.count).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives through its windows what every rule gives on the whole text', () => {
    fc.assert(
      fc.property(fc.oneof(textWithSecrets.map((t) => t.text), secretSoup, fc.string({ maxLength: 200 })), (text) => {
        expect(redactSecrets(text)).toEqual(redactWithoutWindows(text));
      }),
      { numRuns: 1500 },
    );
  });
});
