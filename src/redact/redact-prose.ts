/**
 * Secrets written in sentences: "the sudo password is hunter2", "my API key for staging was
 * 9f8e...", "use this token: a8Kd...". Two rules. A password word followed by `is`/`was`/`:` takes
 * the next word when it reads as a credential (digits or symbols mixed in, or long), never a plain
 * word ("the password is wrong"). A long random-looking token (high entropy, letters and digits
 * mixed) within a few words after a secret word goes whatever the wording. Pure.
 */
import { redactionMarker } from './redact-blocks.js';
import { isReferenceOrPlaceholder } from './judge-value.js';
import { shannonEntropy } from './shannon-entropy.js';

const SECRET_NOUN = '(?:password|passphrase|passcode|passwd|pin|api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|token|credentials?|login)';

/** `<noun> [for the staging db] is|was|: <value>`. */
const PROSE_PASSWORD = new RegExp(
  `\\b(?<!\\[REDACTED:[a-z0-9-]{0,40})${SECRET_NOUN}\\b(?:[ \\t]+(?:for|of|on|to)[ \\t]+[^\\n.,;:]{1,40}?)?[ \\t]+(?:is|was|are|reads|remains|became|is now|is still|should be|will be)[ \\t]*:?[ \\t]+["'\`]?([^\\s"'\`]{4,200}?)["'\`]?(?=[\\s.,;:!?)]|$)`,
  'gi',
);

/** A secret word, then within 40 characters on the same line a long token. */
const NEAR_WORD = /\b(?<!\[REDACTED:[a-z0-9-]{0,40})(?:password|passphrase|passwd|secret|token|api[ _-]?key|apikey|access[ _-]?key|private[ _-]?key|credential|auth|bearer|key)s?\b([^\n]{0,40}?)(?<![A-Za-z0-9+/_=.-])([A-Za-z0-9+/_=.-]{20,300})(?![A-Za-z0-9+/_=.-])/gi;

const COMMON_WORDS = new Set([
  'wrong', 'incorrect', 'correct', 'invalid', 'valid', 'expired', 'required', 'missing', 'empty', 'set', 'unset',
  'stored', 'saved', 'kept', 'needed', 'rotated', 'changed', 'reset', 'revoked', 'hashed', 'encrypted', 'not',
  'the', 'a', 'an', 'in', 'at', 'from', 'still', 'now', 'also', 'too', 'same', 'different', 'fine', 'good',
  'weak', 'strong', 'long', 'short', 'secure', 'insecure', 'available', 'unavailable', 'used', 'generated',
]);

function readsAsCredential(value: string): boolean {
  if (value.startsWith('[REDACTED') || isReferenceOrPlaceholder(value) || COMMON_WORDS.has(value.toLowerCase())) return false;
  if (/^[A-Za-z]+$/.test(value)) return value.length >= 16; // a passphrase word run together
  if (/^[\d,.]+$/.test(value) && value.length < 6) return false; // counts
  return /[\d\W_]/.test(value) && /[A-Za-z\d]/.test(value);
}

/** Random-looking: long, letters and digits mixed, not a hex digest, not a path or a dotted name. */
function looksRandom(token: string): boolean {
  if (token.includes('REDACTED')) return false;
  if (/^[0-9a-f]+$/i.test(token) || /^[\d.-]+$/.test(token)) return false; // digests, versions
  if (/^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$/.test(token) || token.includes('/')) return false; // names, paths
  if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(token)) return false; // UUIDs
  return shannonEntropy(token) >= 3.7;
}

export function redactProse(text: string): { text: string; count: number } {
  let count = 0;
  let out = text.replace(PROSE_PASSWORD, (match: string, value: string) => {
    const core = value.replace(/[.,;:!?)]+$/, '');
    if (!readsAsCredential(core)) return match;
    count += 1;
    const at = match.lastIndexOf(core);
    return `${match.slice(0, at)}${redactionMarker('password')}${match.slice(at + core.length)}`;
  });
  // Until nothing changes: a word's nearest token, once redacted, no longer hides the next random one
  // within reach of the same word, which a second run would otherwise find (redaction is idempotent).
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(NEAR_WORD, (match: string, _between: string, token: string) => {
      if (!looksRandom(token)) return match;
      count += 1;
      return match.slice(0, match.length - token.length) + redactionMarker('secret');
    });
  }
  return { text: out, count };
}
