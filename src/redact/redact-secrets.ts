/**
 * Replaces secrets in text with `[REDACTED:<kind>]` before anything is sent to a model or stored.
 * Pure and idempotent: redacting an already redacted text changes nothing and counts nothing.
 *
 * Linear-time by construction: every token pattern starts with a look-behind that forbids a
 * preceding character of its own body class, so a match can only start where a run of such
 * characters starts, and each run is scanned a bounded number of times.
 */
import { redactPrivateKeyBlocks, redactPrivateSpans, redactionMarker } from './redact-blocks.js';
import { hintedPattern, replaceNearHints } from './replace-near-hints.js';

export interface RedactionResult {
  text: string;
  /** Number of secrets replaced. */
  count: number;
}

interface TokenRule {
  kind: string;
  pattern: RegExp;
  /** Every match holds one of these: a text holding none of them is not searched (a string search is far cheaper). */
  needs: readonly string[];
}

/** Order matters where families overlap: Anthropic keys are also `sk-...`. */
const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'slack-webhook', pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,300}/g, needs: ['hooks.slack.com/'] },
  { kind: 'anthropic-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,400}/g, needs: ['sk-ant-'] },
  { kind: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,400}\d)[A-Za-z0-9_-]{20,400}/g, needs: ['sk-'] },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255})(?![A-Za-z0-9_])/g, needs: ['gh', 'github_pat_'] },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}/g, needs: ['glpat-'] },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,255}/g, needs: ['xox'] },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,255}(?![A-Za-z0-9])/g, needs: ['_live_', '_test_'] },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, needs: ['AIza'] },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, needs: ['AKIA', 'ASIA'] },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, needs: ['eyJ'] },
];

/** `Authorization: Bearer <token>`; the token must hold a digit so prose ("Bearer tokens") stays. */
const BEARER = /\b(Bearer[ \t]{1,4})([A-Za-z0-9._~+/-]{20,500}=*)/g;

/**
 * `scheme://user:password@host`: keep scheme, user and host, drop the password. Searched from each
 * `://` (a scheme is at most 31 characters) rather than tried at every word in the text.
 */
export const URL_CREDENTIALS = hintedPattern({
  pattern: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/@'"<>]{1,200}):([^\s/@'"<>]{1,300})@/gi,
  hint: /:\/\//g,
  reach: 31,
  canStart: (text, i) => isAsciiLetter(text.charCodeAt(i)) && !isWordChar(text.charCodeAt(i - 1)),
});

const AWS_SECRET = /(?<![A-Za-z0-9_])((?:aws_)?secret_access_key|aws_secret_key)(["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi;

/**
 * `password=...`, `DB_PASSWORD: ...`, `"api_key": "..."`, `export API_TOKEN=...`, `clientSecret = '...'`.
 * The key is kept; only the value goes. A key must end in one of the secret words, so
 * `token_count: 3` and prose such as "the password field is required" never match.
 */
const SECRET_WORDS =
  'password|passwd|passphrase|secret|secret[_-]?key|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|signing[_-]?key|encryption[_-]?key';
/**
 * The key is a whole run of key characters (the look-behind and look-ahead see to that) ending in
 * a secret word, so it holds `pass`, `secret`, `token` or `key` within its first 40 + 14 characters
 * (`encryption_key` is the longest word): the pattern is tried at the start of such runs only.
 */
export const SECRET_ASSIGNMENT = hintedPattern({
  pattern: new RegExp(
    `(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{0,40}?(?:${SECRET_WORDS}))(?![A-Za-z0-9_-])` +
      `(["']?)([ \\t]*)([:=])([ \\t]*)(?:"([^"\\n]{1,500})"|'([^'\\n]{1,500})'|([^\\s"'\`]{1,500}))`,
    'gi',
  ),
  hint: /pass|secret|token|key/gi,
  reach: 54,
  canStart: (text, i) => isKeyChar(text.charCodeAt(i)) && !isKeyChar(text.charCodeAt(i - 1)),
});

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `\\w`: letters, digits, underscore (NaN, before the start of the text, is none of them). */
function isWordChar(code: number): boolean {
  return isAsciiLetter(code) || isDigit(code) || code === 95;
}

/** `[A-Za-z0-9_-]`. */
function isKeyChar(code: number): boolean {
  return isWordChar(code) || code === 45;
}

/** Values that name a type or a literal rather than hold a secret (`password: string`). */
const NON_SECRET_WORDS = new Set([
  'string', 'number', 'boolean', 'bool', 'null', 'nil', 'none', 'undefined', 'true', 'false', 'any',
  'unknown', 'void', 'str', 'int', 'bytes', 'optional', 'required', 'empty', 'redacted',
]);

/** A reference to a secret kept elsewhere, a placeholder, or a value already redacted. */
function isReferenceOrPlaceholder(value: string): boolean {
  return (
    value.startsWith('[REDACTED:') ||
    value.startsWith('$') ||
    value.startsWith('{{') ||
    /^%\w+%$/.test(value) ||
    /^<[^<>]*>$/.test(value) ||
    /^(?:\*+|x+|\.{3}|…)$/i.test(value) ||
    NON_SECRET_WORDS.has(value.toLowerCase())
  );
}

/** An unquoted value that reads as code or prose rather than a credential. */
function looksLikeCodeOrProse(value: string): boolean {
  if (/[()<>{}[\]]/.test(value)) return true; // calls, generics, literals
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(value)) return true; // config.token, process.env.X
  if (/^[a-z]+(?:[A-Z][a-z]*)+$/.test(value)) return true; // csrfToken, getToken
  if (/^\d{1,7}$/.test(value)) return true; // counts, limits
  // A plain short word ("Password: required", "token: expired") is prose; real values mix in
  // digits or symbols, or are long.
  return /^[A-Za-z]+$/.test(value) && value.length < 12;
}

/** Punctuation that closes a sentence or a bracket around the value, not part of it. */
function withoutTrailingPunctuation(value: string): string {
  let end = value.length;
  while (end > 0 && ',;.)]}'.includes(value[end - 1] ?? '')) end -= 1;
  return value.slice(0, end);
}

function kindForKey(key: string): string {
  const lower = key.toLowerCase();
  if (lower.includes('pass')) return 'password';
  if (/api[_-]?key|apikey/.test(lower)) return 'api-key';
  if (lower.includes('token')) return 'token';
  return 'secret';
}

export function redactSecrets(text: string): RedactionResult {
  let count = 0;
  let out = text;

  for (const step of [redactPrivateSpans, redactPrivateKeyBlocks]) {
    const r = step(out);
    out = r.text;
    count += r.count;
  }

  out = replaceNearHints(out, URL_CREDENTIALS, ([match = '', scheme = '', user = '', password = '']) => {
    if (isReferenceOrPlaceholder(password)) return match;
    count += 1;
    return `${scheme}${user}:${redactionMarker('password')}@`;
  });

  for (const rule of TOKEN_RULES) {
    if (!rule.needs.some((needed) => out.includes(needed))) continue;
    out = out.replace(rule.pattern, () => {
      count += 1;
      return redactionMarker(rule.kind);
    });
  }

  if (out.includes('Bearer')) {
    out = out.replace(BEARER, (match: string, prefix: string, token: string) => {
      if (!/\d/.test(token)) return match;
      count += 1;
      return `${prefix}${redactionMarker('bearer-token')}`;
    });
  }

  out = out.replace(AWS_SECRET, (_match: string, key: string, separator: string) => {
    count += 1;
    return `${key}${separator}${redactionMarker('aws-secret')}`;
  });

  out = replaceNearHints(
    out,
    SECRET_ASSIGNMENT,
    // The first six groups always take part in a match; exactly one of the three value groups does.
    ([match = '', key = '', quote = '', before = '', sep = '', after = '', doubleQuoted, singleQuoted, bare]) => {
      const head = `${key}${quote}${before}${sep}${after}`;
      const marker = redactionMarker(kindForKey(key));
      const quoted = doubleQuoted ?? singleQuoted;
      if (quoted !== undefined) {
        if (isReferenceOrPlaceholder(quoted.trim())) return match;
        count += 1;
        const q = doubleQuoted !== undefined ? '"' : "'";
        return `${head}${q}${marker}${q}`;
      }
      const value = bare ?? '';
      const core = withoutTrailingPunctuation(value);
      const trailing = value.slice(core.length);
      if (core === '' || isReferenceOrPlaceholder(core)) return match;
      // `KEY=value` (shell, .env, query strings) always holds a value; spaced or `:` forms may be code.
      const envStyle = sep === '=' && quote === '' && before === '' && after === '';
      if (!envStyle && looksLikeCodeOrProse(core)) return match;
      count += 1;
      return `${head}${marker}${trailing}`;
    },
  );

  return { text: out, count };
}
