/**
 * Multi-line redactions that a single regex would do in quadratic time when the closing part is
 * missing: `<private>...</private>` spans and PEM private key blocks. Each scan below visits every
 * character a bounded number of times, whatever the input.
 */

export interface Redaction {
  text: string;
  count: number;
}

export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

const PRIVATE_TAG = /<(\/?)private>/gi;

/**
 * Replaces each outermost `<private>...</private>` span (any case, across lines, nested spans
 * included) with `[REDACTED:private]`, so the reader still sees that something was withheld.
 * An unclosed `<private>` hides everything after it: the user asked for it to stay private.
 * Stray closing tags are left alone.
 */
export function redactPrivateSpans(text: string): Redaction {
  if (!/<private>/i.test(text)) return { text, count: 0 };
  let out = '';
  let pos = 0;
  let depth = 0;
  let count = 0;
  PRIVATE_TAG.lastIndex = 0;
  for (let m = PRIVATE_TAG.exec(text); m !== null; m = PRIVATE_TAG.exec(text)) {
    const closing = m[1] === '/';
    if (!closing) {
      if (depth === 0) {
        out += text.slice(pos, m.index) + redactionMarker('private');
        count += 1;
      }
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) pos = m.index + m[0].length;
    }
  }
  if (depth > 0) return { text: out, count };
  return { text: out + text.slice(pos), count };
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * The body of a key whose END line is missing (a cut-off tool output): whole lines of base64 or
 * PEM headers, possibly ending in the transcript's `… [+N chars]` cut marker. Each repetition must
 * consume a newline, so the nested quantifier cannot backtrack exponentially.
 */
const PEM_BODY =
  /(?:[ \t]*(?:(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):[^\n]*|[A-Za-z0-9+/=]*(?:[ \t]*…[^\n]*)?)\r?\n)*(?:[ \t]*[A-Za-z0-9+/=]+(?:[ \t]*…[^\n]*)?$)?/y;

function unterminatedBodyEnd(text: string, from: number): number {
  PEM_BODY.lastIndex = from;
  const m = PEM_BODY.exec(text);
  let end = m === null ? from : from + m[0].length;
  while (end > from && /\s/.test(text[end - 1] ?? '')) end -= 1;
  return end;
}

interface Found {
  index: number;
  end: number;
}

/** First match of a global regex at or after `from`, or null. */
function findFrom(re: RegExp, text: string, from: number): Found | null {
  re.lastIndex = from;
  const m = re.exec(text);
  return m === null ? null : { index: m.index, end: m.index + m[0].length };
}

/** Replaces PEM private key blocks (RSA, EC, OPENSSH, ENCRYPTED, plain PKCS#8) and PGP private key blocks with `[REDACTED:private-key]`. */
export function redactPrivateKeyBlocks(text: string): Redaction {
  if (!text.includes('PRIVATE KEY')) return { text, count: 0 };
  let out = '';
  let pos = 0;
  let count = 0;
  // Cached look-ahead results, so that many BEGIN lines without END lines stay linear.
  let nextEnd: Found | null | undefined;
  let nextBegin: Found | null | undefined;
  let begin = findFrom(PEM_BEGIN, text, 0);
  while (begin !== null) {
    const bodyStart = begin.end;
    if (nextEnd === undefined || (nextEnd !== null && nextEnd.index < bodyStart)) nextEnd = findFrom(PEM_END, text, bodyStart);
    if (nextBegin === undefined || (nextBegin !== null && nextBegin.index < bodyStart)) nextBegin = findFrom(PEM_BEGIN, text, bodyStart);
    // An END belongs to this block only if no other BEGIN comes first.
    const closed = nextEnd !== null && (nextBegin === null || nextEnd.index < nextBegin.index);
    const end = closed && nextEnd !== null ? nextEnd.end : unterminatedBodyEnd(text, bodyStart);
    out += text.slice(pos, begin.index) + redactionMarker('private-key');
    count += 1;
    pos = end;
    if (nextBegin === null) begin = null;
    else begin = nextBegin.index >= end ? nextBegin : findFrom(PEM_BEGIN, text, end);
  }
  return { text: out + text.slice(pos), count };
}
