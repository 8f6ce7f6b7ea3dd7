/**
 * The text the write-time screen reads: what a reader (or a model) takes the words to be, not how they
 * are spelled. NFKC folds compatibility forms (fullwidth letters, ligatures, mathematical alphabets); tag
 * characters (U+E0020-E007E, invisible "ASCII smuggling") are decoded to the letters they hide;
 * invisible characters, bidirectional controls and combining marks are dropped; the text is lower-cased;
 * and letters that look like Latin ones (Cyrillic "а", Greek "ο", ...) become those letters, by Unicode's
 * confusables table (the `unhomoglyph` package's copy of it), applied to non-ASCII characters only, so
 * ASCII text (commands, paths, URLs) is read exactly as written. Pure.
 */
import { createRequire } from 'node:module';

export interface NormalisedText {
  /** The text as the screen reads it. */
  text: string;
  /** Bidirectional controls or tag characters: ways to show a reader other text than a model reads. */
  concealed: boolean;
}

/** Read on the first text that needs it (about 6,000 entries): plain ASCII text never pays for it. */
let confusables: ReadonlyMap<string, string> | null = null;

/** Invisible format characters (Cf: zero-width, soft hyphen, bidi, tags) and Hangul fillers; variation selectors are marks (below). */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0]/gu;
const COMBINING = /\p{M}/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const TAGS = /\uDB40[\uDC20-\uDC7E]/g;
/** Only text with a character outside printable ASCII needs more than lower-casing. */
const NOT_PLAIN = /[^\x20-\x7E\t\n\r]/;

export function normaliseForScreen(content: string): NormalisedText {
  if (!NOT_PLAIN.test(content)) return { text: content.toLowerCase(), concealed: false };
  const concealed = BIDI.test(content) || /\uDB40[\uDC00-\uDC7F]/.test(content);
  // Tag characters spell ASCII invisibly: read them as the letters they stand for.
  const untagged = content.replace(TAGS, (tag) => String.fromCharCode((tag.codePointAt(0) ?? 0xe0020) - 0xe0000));
  const folded = untagged.normalize('NFKC').replace(INVISIBLE, '').normalize('NFD').replace(COMBINING, '').normalize('NFC').toLowerCase();
  return { text: NOT_PLAIN.test(folded) ? foldConfusables(folded) : folded, concealed };
}

/** Compatibility forms folded and invisible and combining characters dropped, case kept: for decoding base64. */
export function stripDisguises(content: string): string {
  if (!NOT_PLAIN.test(content)) return content;
  return content.normalize('NFKC').replace(INVISIBLE, '').normalize('NFD').replace(COMBINING, '').normalize('NFC');
}

function foldConfusables(text: string): string {
  confusables ??= loadConfusables();
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += code < 0x80 ? char : (confusables.get(char) ?? char);
  }
  return out;
}

/** Non-ASCII characters that look like ASCII text, mapped to that text (lower-cased). */
function loadConfusables(): ReadonlyMap<string, string> {
  const table = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;
  const map = new Map<string, string>();
  for (const [from, to] of Object.entries(table)) {
    if (from.codePointAt(0)! < 0x80 || !/^[\x20-\x7E]+$/.test(to)) continue;
    map.set(from, to.toLowerCase());
  }
  return map;
}
