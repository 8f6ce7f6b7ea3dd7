/**
 * Key-name assignments: `password=...`, `DB_PASS: ...`, `"api_key": "..."`, `export API_TOKEN=...`,
 * `clientSecret = '...'`, `{\"password\":\"...\"}` (escaped JSON), `SECRET_KEY_BASE=...`. The key is
 * kept; only the value goes. Quoted values go whole up to the closing quote (escaped or not);
 * `KEY=value` and YAML values go up to the end of the line, so `PASSWORD=correct horse battery
 * staple` loses every word; other unquoted values lose one token. References, placeholders and file
 * paths stay (see judge-value.ts). Pure.
 */
import { redactionMarker } from './redact-blocks.js';
import { isPlainPhrase, isPlainWord, isReferenceOrPlaceholder, looksLikeCodeOrProse } from './judge-value.js';
import { looksLikeSecretValue, secretNameStrength } from './secret-name.js';
import { hintedPattern, replaceNearHints, type HintedPattern } from './replace-near-hints.js';

const SECRET_WORDS =
  'password|passwd|passphrase|passcode|pass|secrets?|token|credentials?|creds|keys?|salt|seed|dsn|cookies?|session|signature';
/** Words that are a secret key only on their own or after a separator (`DB_PASS`, `auth`, but not `bypass`, `oauth_url`). */
const SHORT_WORDS = 'pass|pwd|pw|auth|pin';
/** Endings after a secret word that still name the secret itself (`SECRET_KEY_BASE`, `password_plain`). */
const SECRET_SUFFIX = '(?:[_-](?:base|value|b64|base64|plain|plaintext|raw|str|hash|salt|data|v\\d))?';

const patterns: HintedPattern[] = [];

function assignmentPattern(): HintedPattern {
  return hintedPattern({
    pattern: new RegExp(
    `(?<![A-Za-z0-9_.-])((?:[A-Za-z0-9_.-]{0,40}?(?:${SECRET_WORDS})|(?:[A-Za-z0-9_.-]{0,40}?[_.-])?(?:${SHORT_WORDS}))${SECRET_SUFFIX})(?![A-Za-z0-9_.-])` +
      `(\\\\{0,3}["']?)([ \\t]*)(:=|=>|:(?!:)|=(?!=))([ \\t]*)` +
      `(?:(\\\\{0,3})(["'\`])([^\\n]{1,500}?)\\6\\7|(?![A-Za-z_][A-Za-z0-9_]*=)([^\\s"'\`][^\\n]{0,499}))`,
    'gi',
  ),
  hint: /pass|pwd|pw|secret|token|key|auth|cred|pin|salt|seed|dsn|cookie|session|signature/gi,
  reach: 56,
  canStart: (text, i) => isKeyChar(text.charCodeAt(i)) && !isKeyChar(text.charCodeAt(i - 1)) && runHoldsHint(text, i),
  });
}

export const SECRET_ASSIGNMENT = assignmentPattern();
patterns[0] = SECRET_ASSIGNMENT;

const RUN_HINT = /pass|pwd|pw|secret|token|key|auth|cred|pin|salt|seed|dsn|cookie|session|signature/i;

/** The key is one run of key characters holding a secret word: a start whose run holds none cannot match. */
function runHoldsHint(text: string, i: number): boolean {
  let end = i;
  while (end < text.length && end - i < 70 && isKeyChar(text.charCodeAt(end))) end += 1;
  return RUN_HINT.test(text.slice(i, end));
}

/** `[A-Za-z0-9_.-]`. */
function isKeyChar(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 45 || code === 46;
}

function kindForKey(key: string): string {
  const lower = key.toLowerCase();
  if (/pass|pwd|pw|pin/.test(lower)) return 'password';
  if (/api[_-]?key|apikey/.test(lower)) return 'api-key';
  if (lower.includes('token')) return 'token';
  return 'secret';
}

/** Where an unquoted value that runs to the end of the line stops: a shell operator or a comment. */
const VALUE_END = /[ \t]+(?:&&|\|\||\||;|#)[ \t]|;[ \t]|[ \t]+\[REDACTED:/;

/** Punctuation that closes a sentence or a bracket around the value, not part of it. */
function withoutTrailingPunctuation(value: string): string {
  let end = value.length;
  while (end > 0 && ',;.)]}'.includes(value[end - 1] ?? '')) end -= 1;
  return value.slice(0, end);
}

export function redactAssignments(text: string): { text: string; count: number } {
  let count = 0;
  const redact = (input: string, depth: number): string => {
    // One pattern per depth: a search keeps its position in its regexes while a nested one runs.
    const search = (patterns[depth] ??= assignmentPattern());
    if (depth > 0 && !/[=:]/.test(input)) return input;
    return replaceNearHints(input, search, (m) => {
      const [match = '', key = '', quote = '', before = '', sep = '', after = '', escape, q, quoted, bare] = m;
      const head = `${key}${quote}${before}${sep}${after}`;
      const marker = redactionMarker(kindForKey(key));
      const strength = secretNameStrength(key);
      /** Whether a candidate value of this name is a secret: any value of a strong name, a token-like one of a weak name. */
      const holds = (value: string): boolean =>
        strength !== undefined && !isReferenceOrPlaceholder(value) && !isPlainWord(value) && !isPlainPhrase(value) && (strength === 'strong' || looksLikeSecretValue(value));
      if (quoted !== undefined) {
        if (!holds(quoted)) return match;
        count += 1;
        return `${head}${escape ?? ''}${q ?? ''}${marker}${escape ?? ''}${q ?? ''}`;
      }
      const line = bare ?? '';
      // `KEY=value` (shell, .env) and `key: value` at the start of a line (YAML) hold the whole line.
      const lineStart = /^[ \t-]*(?:export[ \t]+)?$/.test(lastLine(m.input, m.index));
      const envStyle = sep === '=' && quote === '' && before === '' && after === '';
      const wholeLine = envStyle || (lineStart && (sep === ':' || sep === '='));
      const token = /^[^\s"'`]+/.exec(line)?.[0] ?? '';
      const candidates = [token];
      if (wholeLine) {
        const stop = VALUE_END.exec(line);
        candidates.unshift((stop ? line.slice(0, stop.index) : line).trimEnd());
      }
      // The whole line when it reads as a value, else its first token when that does.
      // A whole line that reads as a reference (`$(gcloud auth print-access-token)`) is one.
      const core = (isReferenceOrPlaceholder(candidates[0] ?? '') ? [] : candidates)
        // Text cut before a redaction that ends in `:` or `=` is the key of the next assignment, not a value.
        .filter((raw) => !raw.includes('[REDACTED:') && (!/[:=]$/.test(raw) || /[A-Za-z0-9+/]{8}={1,2}$/.test(raw)))
        .map(withoutTrailingPunctuation)
        // A value with no letter or digit (`pw: ! ! !`) holds no secret.
        .find((c) => /[\p{L}\p{N}]/u.test(c) && holds(c) && (envStyle || !looksLikeCodeOrProse(c)));
      if (core === undefined) {
        // Not a secret: the words after it may still hold an assignment.
        return `${head}${token}${redact(line.slice(token.length), depth + 1)}`;
      }
      const rest = line.slice(core.length);
      count += 1;
      return `${head}${marker}${redact(rest, depth + 1)}`;
    });
  };
  const out = redact(text, 0);
  return { text: out, count };
}

/** The text of the current line before `index`. */
function lastLine(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  return index - start > 60 ? 'x' : text.slice(start, index);
}
