/**
 * Replaces secrets in text with `[REDACTED:<kind>]` before anything is sent to a model or stored.
 * Pure and idempotent: redacting an already redacted text changes nothing and counts nothing.
 *
 * Linear-time by construction: every token pattern starts with a look-behind that forbids a
 * preceding character of its own body class, so a match can only start where a run of such
 * characters starts, and each run is scanned a bounded number of times.
 */
import { redactPrivateKeyBlocks, redactPrivateSpans, redactionMarker } from './redact-blocks.js';

export interface RedactionResult {
  text: string;
  /** Number of secrets replaced. */
  count: number;
}

interface TokenRule {
  kind: string;
  pattern: RegExp;
}

/** Order matters where families overlap: Anthropic keys are also `sk-...`. */
const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'slack-webhook', pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,300}/g },
  { kind: 'anthropic-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,400}/g },
  { kind: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,400}\d)[A-Za-z0-9_-]{20,400}/g },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255})(?![A-Za-z0-9_])/g },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}/g },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,255}/g },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,255}(?![A-Za-z0-9])/g },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

/** `Authorization: Bearer <token>`; the token must hold a digit so prose ("Bearer tokens") stays. */
const BEARER = /\b(Bearer[ \t]{1,4})([A-Za-z0-9._~+/-]{20,500}=*)/g;

/** `scheme://user:password@host`: keep scheme, user and host, drop the password. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/@'"<>]{1,200}):([^\s/@'"<>]{1,300})@/gi;

const AWS_SECRET = /(?<![A-Za-z0-9_])((?:aws_)?secret_access_key|aws_secret_key)(["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi;

/**
 * `password=...`, `DB_PASSWORD: ...`, `"api_key": "..."`, `export API_TOKEN=...`, `clientSecret = '...'`.
 * The key is kept; only the value goes. A key must end in one of the secret words, so
 * `token_count: 3` and prose such as "the password field is required" never match.
 */
const SECRET_WORDS =
  'password|passwd|passphrase|secret|secret[_-]?key|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|signing[_-]?key|encryption[_-]?key';
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{0,40}?(?:${SECRET_WORDS}))(?![A-Za-z0-9_-])` +
    `(["']?)([ \\t]*)([:=])([ \\t]*)(?:"([^"\\n]{1,500})"|'([^'\\n]{1,500})'|([^\\s"'\`]{1,500}))`,
  'gi',
);

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

  out = out.replace(URL_CREDENTIALS, (match: string, scheme: string, user: string, password: string) => {
    if (isReferenceOrPlaceholder(password)) return match;
    count += 1;
    return `${scheme}${user}:${redactionMarker('password')}@`;
  });

  for (const rule of TOKEN_RULES) {
    out = out.replace(rule.pattern, () => {
      count += 1;
      return redactionMarker(rule.kind);
    });
  }

  out = out.replace(BEARER, (match: string, prefix: string, token: string) => {
    if (!/\d/.test(token)) return match;
    count += 1;
    return `${prefix}${redactionMarker('bearer-token')}`;
  });

  out = out.replace(AWS_SECRET, (_match: string, key: string, separator: string) => {
    count += 1;
    return `${key}${separator}${redactionMarker('aws-secret')}`;
  });

  out = out.replace(
    ASSIGNMENT,
    (match: string, key: string, quote: string, before: string, sep: string, after: string,
      doubleQuoted: string | undefined, singleQuoted: string | undefined, bare: string | undefined) => {
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
