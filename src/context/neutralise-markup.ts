/**
 * Keeps stored text from acting as markup where an agent reads it: every `<` that could open or close a tag
 * (`<system-reminder>`, `</recall-context>`, `< / Recall-Context >`, whatever the case, spacing or nesting)
 * becomes `‹`, and invisible or direction-changing characters (zero-width, bidirectional controls, Unicode
 * tag characters) are removed. One pass that never removes a `<`, so no tag can be pieced back together.
 * Pure; node built-ins only (the SessionStart path may load it).
 */

/** A `<` followed by what a tag name (or `/`, `!`, `?`) can start with, spaces allowed in between. */
const TAG_OPEN = /<(?=\s*[/!?]?\s*[\p{L}_:])/gu;
/** Zero-width characters, bidirectional embeddings, overrides and isolates, the BOM, and tag characters. */
const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

export function neutraliseMarkup(text: string): string {
  let out = text;
  if (HIDDEN.test(out)) out = out.replace(HIDDEN, '');
  HIDDEN.lastIndex = 0;
  return out.includes('<') ? out.replace(TAG_OPEN, '‹') : out;
}
