/**
 * The text the agent reads in place of a large tool output: an observation rendered as markdown,
 * or the deterministic reduction, each ending with one line that says where the full output is
 * and how to read a part of it. Pure.
 */
import type { Observation } from './observation.js';

export interface OutputMeta {
  toolName: string;
  originalChars: number;
  originalLines: number;
  /** Where the full original output was saved (a plain text file). */
  fullOutputPath: string;
  /** At resume: the later tool that changed or re-read the file this result shows (see resume-rules.ts). */
  supersededBy?: string | null;
}

export function renderPointer(meta: OutputMeta): string {
  return `Full output: ${meta.fullOutputPath} (${formatCount(meta.originalChars)} chars, ${formatCount(meta.originalLines)} lines; read it with the Read tool, offset/limit)`;
}

export function renderObservationText(observation: Observation, meta: OutputMeta): string {
  const parts = [`[recall: ${meta.toolName} output of ${formatCount(meta.originalChars)} chars, compressed to an observation${supersededNote(meta)}]`];
  parts.push(`## ${observation.title}`);
  if (observation.subtitle) parts.push(observation.subtitle);
  if (observation.narrative) parts.push('', observation.narrative);
  if (observation.facts.length > 0) parts.push('', ...observation.facts.map((fact) => `- ${fact}`));
  const tail: string[] = [];
  if (observation.files.length > 0) tail.push(`Files: ${observation.files.join(', ')}`);
  if (observation.concepts.length > 0) tail.push(`Concepts: ${observation.concepts.join(', ')}`);
  if (tail.length > 0) parts.push('', ...tail);
  parts.push(renderPointer(meta));
  return parts.join('\n');
}

export function renderReductionText(body: string, meta: OutputMeta): string {
  const header = `[recall: ${meta.toolName} output of ${formatCount(meta.originalChars)} chars, reduced: terminal noise stripped, repeats folded, head, tail and key lines kept${supersededNote(meta)}]`;
  return `${header}\n${body}\n${renderPointer(meta)}`;
}

/** `; out of date: ...` for a result a later call superseded, else nothing. */
function supersededNote(meta: OutputMeta): string {
  if (!meta.supersededBy) return '';
  return meta.supersededBy === 'Read' ? '; a later Read of this file holds its newer text' : `; out of date: a later ${meta.supersededBy} changed this file`;
}

/** `12,345`: thousands separated the same way on every machine. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
