/**
 * Finds the triggers of trigger-words.ts in a text in one pass of one automaton (literal-automaton.ts),
 * case folded as it reads. A literal is a trigger as it stands; a short name part (`pw`, `key`) only when a
 * value follows it (`PW=`, `client-key-data: `); `--` only before a flag naming one (`--api-key`); `:` only
 * as a URL with a user (`://user:pw@`) or a `.pgpass` line (`:5432:db:user:`). Those checks run at the
 * hit, on the text as it is, without copying it.
 */
import { compileLiterals } from './literal-automaton.js';
import { NAME_PARTS, SHORT_PARTS, TRIGGER_LITERALS } from './trigger-words.js';

/** What a hit of each literal asks for. */
const enum Kind {
  Plain,
  /** A marker of a block the whole-text steps redact. */
  Block,
  /** `private key`: a block marker when it is the upper-case PEM line's. */
  PemLine,
  /** `secret`: a block marker after `kind:` (a Kubernetes Secret). */
  Secret,
  NamePart,
  Dashes,
  Colon,
}

const LITERALS: string[] = [];
const KINDS: Kind[] = [];
function add(literal: string, kind: Kind): void {
  LITERALS.push(literal);
  KINDS.push(kind);
}
for (const literal of TRIGGER_LITERALS) {
  const kind = literal === '<private' || literal === 'putty-user-key-file-' ? Kind.Block : literal === 'private key' ? Kind.PemLine : literal === 'secret' ? Kind.Secret : Kind.Plain;
  add(literal, kind);
}
for (const part of SHORT_PARTS) add(part, Kind.NamePart);
add('--', Kind.Dashes);
add(':', Kind.Colon);

const AUTOMATON = compileLiterals(LITERALS);
const LENGTHS = LITERALS.map((literal) => literal.length);

/** `[a-z0-9_.-]` with upper case: the rest of a name after its part. */
const NAME_CHAR = new Uint8Array(65536);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-') NAME_CHAR[c.charCodeAt(0)] = 1;
NAME_CHAR[0x130] = 1;
NAME_CHAR[0x212a] = 1;

/** `\w` */
const WORD_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_') WORD_CHAR[c.charCodeAt(0)] = 1;

/** A flag naming a secret-ish part: what follows `--`. */
const FLAG_NAMING_PART = new RegExp(`[a-z-]{0,30}(?:${NAME_PARTS.join('|')})`, 'iy');

/**
 * Where `name[...]["']{0,3}[ \t]{0,4}[=:]` ends when it starts at `from` (after a name part), else -1: the
 * rest of the name (at most 40 characters), closing quotes or brackets, blanks, then `=` or `:`.
 */
function nameValueEnd(text: string, from: number): number {
  const n = text.length;
  let i = from;
  while (i < n && i - from <= 40 && NAME_CHAR[text.charCodeAt(i)] === 1) i += 1;
  if (i - from > 40) return -1;
  const quotes = i;
  while (i < n && i - quotes <= 3 && isCloser(text.charCodeAt(i))) i += 1;
  if (i - quotes > 3) return -1;
  const blanks = i;
  while (i < n && i - blanks <= 4 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i += 1;
  if (i - blanks > 4) return -1;
  const code = text.charCodeAt(i);
  return code === 61 || code === 58 ? i + 1 : -1;
}

/** `"` `'` `]` `\` */
function isCloser(code: number): boolean {
  return code === 34 || code === 39 || code === 93 || code === 92;
}

/** JavaScript's `\s`. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** `[^\s/'"<>]` */
function isUrlUserChar(code: number): boolean {
  return !isSpace(code) && code !== 47 && code !== 39 && code !== 34 && code !== 60 && code !== 62;
}

/** Where `[\w.*-]+:` (with `@` too: `[\w.*@-]+:`) starting at `from` ends; else -1. */
function runThenColon(text: string, from: number, withAt: boolean): number {
  let i = from;
  for (; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (!((code < 128 && WORD_CHAR[code] === 1) || code === 46 || code === 42 || code === 45 || (withAt && code === 64))) break;
  }
  return i > from && text.charCodeAt(i) === 58 ? i + 1 : -1;
}

/**
 * Where a trigger starting at the colon `at` ends, else -1: `://user:password@` (the last `@` within 300
 * characters of user characters), or a `.pgpass` line's `:port:db:user:` (`*` for any port).
 */
function colonEnd(text: string, at: number): number {
  const first = text.charCodeAt(at + 1);
  if (first === 47) {
    if (text.charCodeAt(at + 2) !== 47) return -1;
    let lastAt = -1;
    const from = at + 3;
    for (let i = from; i < text.length && i - from <= 300; i += 1) {
      const code = text.charCodeAt(i);
      if (!isUrlUserChar(code)) break;
      if (code === 64 && i > from) lastAt = i;
    }
    // The `@` itself is a user character too, so the run may end on it: the `@` needs one character before it.
    return lastAt < 0 ? -1 : lastAt + 1;
  }
  let i = at + 1;
  if (first === 42) i += 1;
  else {
    let digits = 0;
    while (digits <= 5 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
      i += 1;
      digits += 1;
    }
    if (digits === 0 || digits > 5) return -1;
  }
  if (text.charCodeAt(i) !== 58) return -1;
  const db = runThenColon(text, i + 1, false);
  return db < 0 ? -1 : runThenColon(text, db, true);
}

/** `kind:[ \t]*["']?` just before `at`, in any case. */
function followsKind(text: string, at: number): boolean {
  let i = at - 1;
  const quote = text.charCodeAt(i);
  if (quote === 34 || quote === 39) i -= 1;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i -= 1;
  return i >= 4 && text.charCodeAt(i) === 58 && text.slice(i - 4, i).toLowerCase() === 'kind';
}

/**
 * Trigger hits in `text` as `[start, end]` pairs, by the place each ends (hits on one line may start out of
 * order, never across lines); sets `markers.blocks` when a hit marks a block redacted over the whole text.
 */
export function findTriggers(text: string, markers: { blocks: boolean }): number[] {
  const hits: number[] = [];
  const { width, classOf, next, endsAt, ends } = AUTOMATON;
  const n = text.length;
  let row = 0;
  for (let i = 0; i < n; i += 1) {
    row = next[row + (classOf[text.charCodeAt(i)] as number)] as number;
    if (row >= 0) continue;
    row = ~row;
    const list = endsAt[row / width] as number;
    const count = ends[list] as number;
    for (let k = 1; k <= count; k += 1) {
      const id = ends[list + k] as number;
      const start = i + 1 - (LENGTHS[id] as number);
      let end = i + 1;
      switch (KINDS[id]) {
        case Kind.Block:
          markers.blocks = true;
          break;
        case Kind.PemLine:
          if (text.startsWith('PRIVATE KEY', start)) markers.blocks = true;
          break;
        case Kind.Secret:
          if (followsKind(text, start)) markers.blocks = true;
          break;
        case Kind.NamePart:
          end = nameValueEnd(text, end);
          break;
        case Kind.Dashes:
          FLAG_NAMING_PART.lastIndex = end;
          if (!FLAG_NAMING_PART.test(text)) end = -1;
          break;
        case Kind.Colon:
          end = colonEnd(text, start);
          break;
        default:
          break;
      }
      if (end >= 0) hits.push(start, end);
    }
  }
  return hits;
}
