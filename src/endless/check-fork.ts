/**
 * What a compressed transcript must still be before it replaces or sits beside the original: one
 * JSON object per line, the same lines in the same order with the same uuid/parentUuid chain, and
 * a tool_result for every tool_use that had one. Pure.
 */
import { messageContent } from './fork-transcript.js';
import { isObject } from '../core/is-object.js';

type Json = Record<string, unknown>;

export interface ForkCheck {
  ok: boolean;
  problems: string[];
  records: Json[];
}

/**
 * `changed`: the indexes of the lines the transform rebuilt. Given, only those are parsed again and
 * compared with their input line (same uuid and parentUuid, the same tool results answered); every
 * other line stands for its input record, because the transform copies it byte for byte apart from
 * a JSON-safe `"sessionId":"..."` substitution; a rebuilt line must also still make every tool call
 * it made. Without it, every line is parsed and the whole
 * transcript compared.
 */
export function checkForkedLines(before: readonly Json[], after: ReadonlyArray<string | Buffer>, changed?: ReadonlySet<number>): ForkCheck {
  const problems: string[] = [];
  const records: Json[] = [];
  after.forEach((line, i) => {
    if (changed !== undefined && !changed.has(i) && before[i] !== undefined) {
      records.push(before[i]!);
      return;
    }
    const text = typeof line === 'string' ? line : line.toString('utf8');
    try {
      const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      if (isObject(value)) records.push(value);
      else problems.push(`line ${i + 1} is not a JSON object`);
    } catch {
      problems.push(`line ${i + 1} is not valid JSON`);
    }
  });
  if (problems.length > 0) return { ok: false, problems, records };
  if (records.length !== before.length) problems.push(`${before.length} lines became ${records.length}`);
  const compared = changed === undefined ? records.map((_, i) => i) : [...changed].filter((i) => i < records.length).sort((a, b) => a - b);
  const link = (r: Json | undefined): string => `${String(r?.uuid)}<${String(r?.parentUuid)}`;
  if (compared.some((i) => link(before[i]) !== link(records[i]))) problems.push('the uuid/parentUuid chain changed');
  // Whole transcripts: every tool_use that had a result still has one. Rebuilt lines: each still answers what it answered.
  const ids = changed === undefined ? resultIds : answeredIds;
  const answered = ids(changed === undefined ? records : compared.map((i) => records[i]!));
  const missing = [...ids(changed === undefined ? before : compared.map((i) => before[i]!))].filter((id) => !answered.has(id));
  if (missing.length > 0) problems.push(`tool results lost: ${missing.slice(0, 3).join(', ')}`);
  const called = callIds(compared.map((i) => records[i]!));
  const lostCalls = [...callIds(compared.map((i) => before[i]!))].filter((id) => !called.has(id));
  if (lostCalls.length > 0) problems.push(`tool calls lost: ${lostCalls.slice(0, 3).join(', ')}`);
  return { ok: problems.length === 0, problems, records };
}

/** Ids every tool_result block in the records answers. */
function answeredIds(records: readonly Json[]): Set<string> {
  return blockIds(records, 'tool_result', 'tool_use_id');
}

/** Ids of every tool_use block in the records. */
function callIds(records: readonly Json[]): Set<string> {
  return blockIds(records, 'tool_use', 'id');
}

/** The string `key` of every content block of the given type. */
function blockIds(records: readonly Json[], type: string, key: string): Set<string> {
  const ids = new Set<string>();
  for (const record of records) {
    for (const block of messageContent(record) ?? []) {
      if (!isObject(block)) continue;
      const b = block;
      if (b.type === type && typeof b[key] === 'string') ids.add(b[key]);
    }
  }
  return ids;
}

/** Ids of tool_use blocks that have a tool_result block. */
export function resultIds(records: readonly Json[]): Set<string> {
  const answered = answeredIds(records);
  return new Set([...callIds(records)].filter((id) => answered.has(id)));
}
