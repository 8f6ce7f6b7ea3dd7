/**
 * Replaces secrets in text with `[REDACTED:<kind>]` before anything is sent to a model or stored.
 * Pure and idempotent: redacting an already redacted text changes nothing and counts nothing.
 *
 * Whole blocks go first (private spans, key blocks), then tokens known by their shape (recall's own
 * rules, token-rules.ts), then credentials that depend on their context (URLs, headers, command
 * lines, credential files, key-name assignments, sentences), and last the vendored gitleaks rule set
 * (data/redaction/), which finds the long tail of service tokens. Each step leaves what an earlier
 * one replaced alone.
 */
import { redactPrivateKeyBlocks, redactPrivateSpans, redactionMarker } from './redact-blocks.js';
import { hintedPattern, replaceNearHints } from './replace-near-hints.js';
import { isReferenceOrPlaceholder } from './judge-value.js';
import { redactAssignments } from './redact-assignments.js';
import { redactCredentials } from './redact-credentials.js';
import { redactKeyMaterial } from './redact-key-material.js';
import { redactProse } from './redact-prose.js';
import { TOKEN_RULES } from './token-rules.js';
import { GITLEAKS_RULES } from './gitleaks-rules.generated.js';
import { compileRuleSet, type RuleSetRunner } from './rule-set.js';

export interface RedactionResult {
  text: string;
  /** Number of secrets replaced. */
  count: number;
}

/** `Authorization: Bearer <token>`; the token must hold a digit so prose ("Bearer tokens") stays. */
const BEARER = /\b(Bearer[ \t]{1,4})([A-Za-z0-9._~+/-]{20,500}=*)/g;

/**
 * `scheme://user:password@host`: keep scheme, user and host, drop the password (which may hold `@`:
 * the last `@` before the host ends it; the user may be empty, `redis://:pw@host`). Searched from each
 * `://` (a scheme is at most 31 characters) rather than tried at every word in the text.
 */
export const URL_CREDENTIALS = hintedPattern({
  pattern: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/@'"<>]{0,200}):([^\s/'"<>]{1,300})@(?=[^\s/@'"<>])/gi,
  hint: /:\/\//g,
  reach: 31,
  canStart: (text, i) => isAsciiLetter(text.charCodeAt(i)) && !isWordChar(text.charCodeAt(i - 1)),
});

const AWS_SECRET = /(?<![A-Za-z0-9_])((?:aws_)?secret_access_key|aws_secret_key)(["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi;

let ruleSet: RuleSetRunner | undefined;

/** The vendored rule set, compiled on first use (each rule's pattern on the first text that holds its keyword). */
function vendoredRules(): RuleSetRunner {
  ruleSet ??= compileRuleSet(GITLEAKS_RULES);
  return ruleSet;
}

type Step = (text: string) => { text: string; count: number };

/** In order: whole blocks first, then tokens known by shape, then what depends on context. */
const STEPS: readonly Step[] = [
  redactPrivateSpans,
  redactPrivateKeyBlocks,
  redactKeyMaterial,
  redactUrlCredentials,
  redactKnownTokens,
  redactHeadersAndAwsSecrets,
  redactCredentials,
  redactAssignments,
  redactProse,
  (text) => vendoredRules().redact(text),
];

export function redactSecrets(text: string): RedactionResult {
  let count = 0;
  let out = text;
  for (const step of STEPS) {
    const r = step(out);
    out = r.text;
    count += r.count;
  }
  return { text: out, count };
}

function redactUrlCredentials(text: string): RedactionResult {
  let count = 0;
  const out = replaceNearHints(text, URL_CREDENTIALS, ([match = '', scheme = '', user = '', password = '']) => {
    if (isReferenceOrPlaceholder(password) || /^\d{1,5}(?:[?#]|$)/.test(password)) return match;
    count += 1;
    return `${scheme}${user}:${redactionMarker('password')}@`;
  });
  return { text: out, count };
}

function redactKnownTokens(text: string): RedactionResult {
  let count = 0;
  let out = text;
  for (const rule of TOKEN_RULES) {
    if (!rule.needs.some((needed) => out.includes(needed))) continue;
    out = out.replace(rule.pattern, () => {
      count += 1;
      return redactionMarker(rule.kind);
    });
  }
  return { text: out, count };
}

function redactHeadersAndAwsSecrets(text: string): RedactionResult {
  let count = 0;
  let out = text;
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
  return { text: out, count };
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `\\w`: letters, digits, underscore (NaN, before the start of the text, is none of them). */
function isWordChar(code: number): boolean {
  return isAsciiLetter(code) || (code >= 48 && code <= 57) || code === 95;
}
