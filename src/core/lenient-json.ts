/**
 * JSON out of a model's answer, read leniently. Small local models wrap JSON in `<think>` blocks, code
 * fences or chatter, leave trailing commas, or stop half-way; these find every value that parses. Pure.
 */

/** The answer without `<think>...</think>` blocks, trimmed. */
export function withoutThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
}

/** Every JSON value the text may hold, most likely first: the whole text, each code fence, then each balanced `{...}` / `[...]` slice. */
export function* jsonCandidates(text: string): Generator<unknown> {
  yield* parsed([parseLenient(text)]);
  for (const fence of text.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g)) yield* parsed([parseLenient(fence[1] ?? '')]);
  yield* balancedJsonValues(text);
}

/** The values of the balanced `{...}` / `[...]` slices that parse, outermost first: what is left of a cut-off answer. */
export function* balancedJsonValues(text: string): Generator<unknown> {
  for (const slice of balancedSlices(text)) yield* parsed([parseLenient(slice)]);
}

const NOT_JSON = Symbol('not json');

function* parsed(values: readonly unknown[]): Generator<unknown> {
  for (const value of values) if (value !== NOT_JSON) yield value;
}

/** JSON.parse of an object or array, retried once with trailing commas removed; NOT_JSON when both fail. */
function parseLenient(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return NOT_JSON;
  try {
    return JSON.parse(trimmed);
  } catch {
    try {
      return JSON.parse(withoutTrailingCommas(trimmed));
    } catch {
      return NOT_JSON;
    }
  }
}

/** Every balanced `{...}` or `[...]` slice, outermost first, in order of their opening bracket. */
function balancedSlices(text: string, maxOpenings = 500): string[] {
  const slices: string[] = [];
  let openings = 0;
  for (let start = 0; start < text.length && openings < maxOpenings; start++) {
    const ch = text[start];
    if (ch !== '{' && ch !== '[') continue;
    openings++;
    const end = matchingBracket(text, start);
    if (end > start) slices.push(text.slice(start, end + 1));
  }
  return slices;
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 when it never closes. */
function matchingBracket(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Drops commas directly before `}` or `]`, outside strings. */
function withoutTrailingCommas(text: string): string {
  const closerAhead = /\s*[}\]]/y;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    closerAhead.lastIndex = i + 1;
    if (ch === ',' && closerAhead.test(text)) continue;
    out += ch;
  }
  return out;
}
