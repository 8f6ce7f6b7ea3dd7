/**
 * Replaces secrets in text with `[REDACTED:<kind>]` before anything is sent to a model or stored.
 * Pure and idempotent: redacting an already redacted text changes nothing and counts nothing.
 *
 * Whole blocks go first, over the whole text, each found by a fixed marker (private spans, key blocks,
 * key files). Then one pass of the prefilter (find-windows.ts) picks the windows of lines where a
 * secret can be, and the rules run on those windows only: tokens known by their shape (recall's own
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
import { redactCommands } from './redact-commands.js';
import { redactCsv } from './redact-csv.js';
import { redactEncoded } from './redact-encoded.js';
import { redactYamlBlocks } from './redact-yaml-blocks.js';
import { redactKeyFiles, redactKeyMaterial } from './redact-key-material.js';
import { findWindows } from './find-windows.js';
import { redactProse } from './redact-prose.js';
import { TOKEN_RULES } from './token-rules.js';
import { GITLEAKS_RULES } from './gitleaks-rules.generated.js';
import { compileRuleSet, type RuleSetRunner } from './rule-set.js';
import { literalIndex } from './combined-pattern.js';

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
 * `://` (a scheme is at most 31 characters) rather than tried at every word in the text. The scheme may be
 * glued to what comes before it (`…T0redis://`, text joined at a cut): it is kept either way, and the
 * password after it is what matters.
 */
export const URL_CREDENTIALS = hintedPattern({
  pattern: /([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/@'"<>]{0,200}):([^\s/'"<>]{1,300})@(?=[^\s/@'"<>])/gi,
  hint: /:\/\//g,
  reach: 31,
  canStart: (text, i) => isAsciiLetter(text.charCodeAt(i)),
});

const AWS_SECRET = /(?<![A-Za-z0-9_])((?:aws_)?secret_access_key|aws_secret_key)(["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi;

let ruleSet: RuleSetRunner | undefined;

/** The vendored rule set, compiled on first use (each rule's pattern on the first text that holds its keyword). */
function vendoredRules(): RuleSetRunner {
  ruleSet ??= compileRuleSet(GITLEAKS_RULES);
  return ruleSet;
}

type Step = (text: string) => { text: string; count: number };

/** Over the whole text: blocks found by a fixed marker, which may be longer than any window. */
const WHOLE_TEXT_STEPS: readonly Step[] = [redactPrivateSpans, redactPrivateKeyBlocks, redactKeyFiles];

/** On each window, in order: tokens known by shape, then what depends on context. */
const WINDOW_STEPS: readonly Step[] = [
  redactKeyMaterial,
  redactUrlCredentials,
  redactKnownTokens,
  redactHeadersAndAwsSecrets,
  redactCredentials,
  redactCommands,
  redactCsv,
  redactYamlBlocks,
  redactAssignments,
  redactProse,
  (text) => vendoredRules().redact(text),
  // Last: what the rules above find once an encoded span is decoded.
  (text) => redactEncoded(text, redactDecoded),
];

/** The rules run on a decoded span: every window rule but the decoding itself (one level deep). */
function redactDecoded(text: string): RedactionResult {
  return runSteps(WINDOW_STEPS.slice(0, -1), text);
}

export function redactSecrets(text: string): RedactionResult {
  const markers = { blocks: false };
  let out = text;
  let count = 0;
  let windows = findWindows(out, markers);
  // The block steps only when the pass saw one of their markers; when they change the text, its windows are found again.
  if (markers.blocks) {
    const blocks = runSteps(WHOLE_TEXT_STEPS, text);
    if (blocks.count > 0) {
      out = blocks.text;
      count = blocks.count;
      windows = findWindows(out);
    }
  }
  if (windows.length === 0) return { text: out, count };
  // Only the windows a rule changed are spliced in: a text with nothing to redact comes back as it was.
  let next = '';
  let pos = 0;
  for (let w = 0; w < windows.length; w += 2) {
    const start = windows[w] as number;
    const end = windows[w + 1] as number;
    const window = out.slice(start, end);
    const r = redactWindow(window);
    count += r.count;
    if (r.text === window) continue;
    next += out.slice(pos, start) + r.text;
    pos = end;
  }
  return { text: pos === 0 ? out : next + out.slice(pos), count };
}

/** Every rule on the whole of `text`, no window picked: what the windows must add up to (a test compares the two). */
export function redactWithoutWindows(text: string): RedactionResult {
  const blocks = runSteps(WHOLE_TEXT_STEPS, text);
  const rest = runSteps(WINDOW_STEPS, blocks.text);
  return { text: rest.text, count: blocks.count + rest.count };
}

function redactWindow(text: string): RedactionResult {
  return runSteps(WINDOW_STEPS, text);
}

function runSteps(steps: readonly Step[], text: string): RedactionResult {
  let count = 0;
  let out = text;
  for (const step of steps) {
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

/** Every token rule's needed literals in one pattern, each standing for its rule. */
const TOKEN_NEEDS = literalIndex(TOKEN_RULES.flatMap((rule) => rule.needs), false);
const TOKEN_NEED_RULE = TOKEN_RULES.flatMap((rule, i) => rule.needs.map(() => i));

function redactKnownTokens(text: string): RedactionResult {
  let count = 0;
  let out = text;
  const wanted = new Set([...TOKEN_NEEDS.found(text)].map((k) => TOKEN_NEED_RULE[k]));
  if (wanted.size === 0) return { text, count };
  for (const [i, rule] of TOKEN_RULES.entries()) {
    if (!wanted.has(i)) continue;
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
