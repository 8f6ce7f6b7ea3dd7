/**
 * Secrets in encoded text: percent-encoded (`password%3D...`, `postgres%3A%2F%2Fadmin%3APW%40db`), escaped
 * (`\u003d`, `\x3d`, double-escaped JSON), and base64 or hex runs that decode to a known token, a
 * credential or a key. Each encoded span is decoded, the decoded text is redacted by the other rules
 * (`redactPlain`, handed in), and when that found a secret the original span is redacted: the changed
 * part of it, mapped back through the decoding, or the whole run for base64 and hex. Pure.
 */
import { redactionMarker } from './redact-blocks.js';

type Redact = (text: string) => { text: string; count: number };

/** A run holding percent escapes or backslash escapes. */
const ESCAPED_RUN = /[^\n"'<>`]*(?:%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2})[^\n"'<>`]*/g;
/** Base64 (standard or URL-safe) and hex runs long enough to hold a token. */
const BASE64_RUN = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/_=-])/g;

interface Decoded {
  text: string;
  /** For each character of `text`, where it starts in the original span; one more entry for the end. */
  from: number[];
}

/** Percent escapes and `\uXXXX`/`\xXX` escapes decoded, with where each decoded character came from. */
function decodeEscapes(span: string): Decoded {
  let text = '';
  const from: number[] = [];
  for (let i = 0; i < span.length; ) {
    let m: RegExpExecArray | null;
    if (span[i] === '%' && (m = /^%([0-9A-Fa-f]{2})/.exec(span.slice(i, i + 3))) !== null) {
      // Multi-byte UTF-8 sequences decode as their bytes: enough for the ASCII that separators are.
      text += String.fromCharCode(parseInt(m[1] as string, 16));
      from.push(i);
      i += 3;
    } else if (span[i] === '\\' && (m = /^\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))/.exec(span.slice(i, i + 6))) !== null) {
      text += String.fromCharCode(parseInt((m[1] ?? m[2]) as string, 16));
      from.push(i);
      i += m[0].length;
    } else {
      text += span[i];
      from.push(i);
      i += 1;
    }
  }
  from.push(span.length);
  return { text, from };
}

/** The part of `before` that `after` replaced: equal heads and tails trimmed. */
function changedPart(before: string, after: string): { start: number; end: number; replacement: string } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1;
  return { start: head, end: before.length - tail, replacement: after.slice(head, after.length - tail) };
}

/** Decoded bytes that read as text: printable ASCII and whitespace, most of it. */
function readsAsText(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  let printable = 0;
  for (const b of bytes) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable += 1;
  return printable / bytes.length >= 0.95;
}

/** A DER private key or key container: an ASN.1 SEQUENCE of two-byte length holding a small INTEGER version. */
function isDerKey(bytes: Buffer): boolean {
  return bytes.length > 64 && bytes[0] === 0x30 && bytes[1] === 0x82 && bytes[4] === 0x02 && bytes[5] === 0x01;
}

function decodeRun(run: string): Buffer | undefined {
  if (/^[0-9a-fA-F]+$/.test(run)) return run.length % 2 === 0 && run.length >= 32 ? Buffer.from(run, 'hex') : undefined;
  const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return undefined;
  return Buffer.from(standard, 'base64');
}

export function redactEncoded(text: string, redactPlain: Redact): { text: string; count: number } {
  let count = 0;
  let out = text;
  if (/%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}/.test(out)) {
    out = out.replace(ESCAPED_RUN, (span: string) => {
      if (span.includes('[REDACTED:')) return span;
      const decoded = decodeEscapes(span);
      const r = redactPlain(decoded.text);
      if (r.count === 0) return span;
      count += r.count;
      const { start, end, replacement } = changedPart(decoded.text, r.text);
      return `${span.slice(0, decoded.from[start])}${replacement}${span.slice(decoded.from[end])}`;
    });
  }
  out = out.replace(BASE64_RUN, (run: string) => {
    if (!/\d/.test(run) || !/[A-Za-z]/.test(run)) return run;
    const bytes = decodeRun(run);
    if (bytes === undefined) return run;
    if (isDerKey(bytes)) {
      count += 1;
      return redactionMarker('private-key');
    }
    if (!readsAsText(bytes)) return run;
    const decoded = bytes.toString('latin1');
    if (/-----BEGIN [A-Z ]*(?:PRIVATE KEY|CERTIFICATE)/.test(decoded)) {
      count += 1;
      return redactionMarker('key-material');
    }
    if (redactPlain(decoded).count === 0) return run;
    count += 1;
    return redactionMarker('encoded-secret');
  });
  return { text: out, count };
}
