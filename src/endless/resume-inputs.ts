/**
 * At resume, the agent's own file writes are history as much as the outputs it read: a Write's
 * `content`, an Edit's `old_string`/`new_string`, each edit of a MultiEdit, a NotebookEdit's
 * `new_source`. In the real transcripts they are the largest part of the conversation after the
 * tool results. The file on disk holds what came of them, and an edit made after resume has to
 * match the file as it is, not as a call of the past wrote it. So `recall endless fork` (and
 * `--in-place`) puts a one-line marker in place of each long text of such a call, after saving the
 * call's whole input; the marker says how long the text was and where the full input is.
 *
 * Left whole: the calls of the last `keepRecent` results (the same window the results keep), calls
 * with no result or a failed one (the file may not hold their text), inputs under `forkMinChars`,
 * and any input the markers would not at least halve. Pure: saving is the caller's.
 */
import { formatCount } from './render-compressed.js';
import { isObject } from '../core/is-object.js';

type Json = Record<string, unknown>;

/** A file-writing tool_use block of an assistant line. */
export interface ToolUseRef {
  lineIndex: number;
  blockIndex: number;
  toolUseId: string;
  toolName: string;
  input: Json;
}

export interface InputReplacement {
  use: ToolUseRef;
  /** The input with its long texts replaced by markers. */
  input: Json;
  /** Characters of the input as the model reads it (JSON), before and after. */
  before: number;
  after: number;
}

/** The string fields of each tool's input that hold file text; MultiEdit's live in `edits[]`. */
const TEXT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Write: ['content'],
  Edit: ['old_string', 'new_string'],
  MultiEdit: ['old_string', 'new_string'],
  NotebookEdit: ['new_source'],
};

/** Texts shorter than this stay in place even in a compressed input: a marker would not be shorter. */
export const MIN_MARKED_CHARS = 200;
const MARKER_PREFIX = '[recall: ';

/** Every Write, Edit, MultiEdit and NotebookEdit call in the transcript, in order. */
export function findFileWrites(records: readonly Json[]): ToolUseRef[] {
  const uses: ToolUseRef[] = [];
  records.forEach((record, lineIndex) => {
    if (record.type !== 'assistant') return;
    const content = isObject(record.message) && Array.isArray(record.message.content) ? record.message.content : null;
    content?.forEach((block, blockIndex) => {
      if (!isObject(block) || block.type !== 'tool_use' || typeof block.id !== 'string' || typeof block.name !== 'string') return;
      if (Object.hasOwn(TEXT_FIELDS, block.name) && isObject(block.input)) uses.push({ lineIndex, blockIndex, toolUseId: block.id, toolName: block.name, input: block.input });
    });
  });
  return uses;
}

export interface InputRules {
  /** Calls whose inputs stay whole: those of the kept recent results, failed calls, calls with no result. */
  keepWhole: ReadonlySet<string>;
  /** Inputs this long (JSON characters) and up are compressed. */
  minChars: number;
  /** Where the call's full input is saved, for the marker. */
  savedPathOf(use: ToolUseRef): string;
}

/** The replacement of each input worth compressing. */
export function selectInputReplacements(uses: readonly ToolUseRef[], rules: InputRules): InputReplacement[] {
  const out: InputReplacement[] = [];
  for (const use of uses) {
    if (rules.keepWhole.has(use.toolUseId)) continue;
    const before = JSON.stringify(use.input).length;
    if (before < rules.minChars) continue;
    const input = markInput(use, rules.savedPathOf(use));
    if (input === null) continue;
    const after = JSON.stringify(input).length;
    if (after <= before / 2) out.push({ use, input, before, after });
  }
  return out;
}

/**
 * The input with each long text replaced by its marker; null when there is nothing to mark. The
 * first marker says the file on disk holds the current text; every marker names the saved input.
 */
export function markInput(use: ToolUseRef, savedPath: string): Json | null {
  const fields = TEXT_FIELDS[use.toolName] ?? [];
  let marked = 0;
  const mark = (object: Json): Json => {
    const copy: Json = { ...object };
    for (const field of fields) {
      const value = copy[field];
      if (typeof value !== 'string' || value.length < MIN_MARKED_CHARS || value.startsWith(MARKER_PREFIX)) continue;
      copy[field] = markerFor(value, savedPath, marked === 0);
      marked += 1;
    }
    return copy;
  };
  const input = use.toolName === 'MultiEdit' && Array.isArray(use.input.edits)
    ? { ...use.input, edits: use.input.edits.map((edit) => (isObject(edit) ? mark(edit) : edit)) }
    : mark(use.input);
  return marked > 0 ? input : null;
}

/** `[recall: 120 lines (4,312 chars) left out at resume; ...; full input: <path>]` */
export function markerFor(text: string, savedPath: string, first: boolean): string {
  const lines = text.split('\n').length;
  const note = first ? '; the file on disk holds its current text' : '';
  return `${MARKER_PREFIX}${formatCount(lines)} ${lines === 1 ? 'line' : 'lines'} (${formatCount(text.length)} chars) left out at resume${note}; full input: ${savedPath}]`;
}
