/**
 * What a compressed transcript must still be before it replaces or sits beside the original: one
 * JSON object per line, the same lines in the same order with the same uuid/parentUuid chain, and
 * a tool_result for every tool_use that had one. Pure.
 */
import { messageContent } from './fork-transcript.js';

type Json = Record<string, unknown>;

export interface ForkCheck {
  ok: boolean;
  problems: string[];
  records: Json[];
}

/**
 * `changed`: the indexes of the lines the transform rebuilt. Given, only those are parsed again and
 * every other line stands for its input record (the transform copies it byte for byte apart from a
 * JSON-safe `"sessionId":"..."` substitution); without it, every line is parsed.
 */
export function checkForkedLines(before: readonly Json[], after: readonly string[], changed?: ReadonlySet<number>): ForkCheck {
  const problems: string[] = [];
  const records: Json[] = [];
  after.forEach((line, i) => {
    if (changed !== undefined && !changed.has(i) && before[i] !== undefined) {
      records.push(before[i]!);
      return;
    }
    try {
      const value: unknown = JSON.parse(line.replace(/^\uFEFF/, ''));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) records.push(value as Json);
      else problems.push(`line ${i + 1} is not a JSON object`);
    } catch {
      problems.push(`line ${i + 1} is not valid JSON`);
    }
  });
  if (problems.length > 0) return { ok: false, problems, records };
  if (records.length !== before.length) problems.push(`${before.length} lines became ${records.length}`);
  const chain = (list: readonly Json[]): string => list.map((r) => `${String(r.uuid)}<${String(r.parentUuid)}`).join('|');
  if (chain(before) !== chain(records)) problems.push('the uuid/parentUuid chain changed');
  const answered = resultIds(records);
  const missing = [...resultIds(before)].filter((id) => !answered.has(id));
  if (missing.length > 0) problems.push(`tool results lost: ${missing.slice(0, 3).join(', ')}`);
  return { ok: problems.length === 0, problems, records };
}

/** Ids of tool_use blocks that have a tool_result block. */
export function resultIds(records: readonly Json[]): Set<string> {
  const uses = new Set<string>();
  const answered = new Set<string>();
  for (const record of records) {
    for (const block of messageContent(record) ?? []) {
      if (typeof block !== 'object' || block === null) continue;
      const b = block as Json;
      if (b.type === 'tool_use' && typeof b.id === 'string') uses.add(b.id);
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') answered.add(b.tool_use_id);
    }
  }
  return new Set([...uses].filter((id) => answered.has(id)));
}
