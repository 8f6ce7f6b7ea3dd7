/**
 * What `recall endless fork` (and backfill, which prepares it) may compress beyond the live
 * PostToolUse hook's rules. The hook decides the moment an output arrives, when the agent is about
 * to act on it; a fork is made of a finished session, whose outputs are history. Two things are safe
 * then that are not safe live:
 *
 * - Superseded file results. A Read result (any size, a range read too), or the file echo of a
 *   Write, Edit or MultiEdit, whose file the session later changed (Edit, MultiEdit, Write,
 *   NotebookEdit) or read again in full: its exact text is no longer what an edit must match.
 * - Smaller outputs of the other tools (Bash, Grep, Glob, web, Task, MCP) from `forkMinChars` up:
 *   the agent already acted on them.
 *
 * Everything else keeps the live rules: a Read of a file the session did not touch again stays
 * whole under readMinChars, the denylist holds, the last `keepRecent` results stay whole, and
 * every replacement points at the saved full output. Pure.
 */
import { isObject } from '../core/is-object.js';
import { isDenied, judgeText, looksBinary, refuseByInput, type Thresholds } from './eligibility.js';
import { COMPRESSED_PREFIX, type ToolResultRef } from './fork-transcript.js';
import { toolKind } from './tool-shapes.js';

export interface ResumeThresholds extends Thresholds {
  /** Results of tools other than Read are compressed from this size up at resume (live: minChars). */
  forkMinChars: number;
}

export interface ResumeChoice {
  ref: ToolResultRef;
  /** The tool that later changed or re-read the file, when the result is superseded. */
  supersededBy: string | null;
  /** The live hook's rules would compress it too; false when only the resume rules do. */
  live: boolean;
}

/** Tools whose call names the file it reads or writes, and whether the call changes the file. */
const FILE_TOOLS: Readonly<Record<string, 'reads' | 'changes'>> = {
  Read: 'reads',
  Edit: 'changes',
  MultiEdit: 'changes',
  Write: 'changes',
  NotebookEdit: 'changes',
};

/** Results whose file echo can be superseded (NotebookEdit answers with no file text). */
const ECHOES_FILE: ReadonlySet<string> = new Set(['Read', 'Edit', 'MultiEdit', 'Write']);

export function selectForResume(refs: readonly ToolResultRef[], thresholds: ResumeThresholds, keepRecent: number, savedRoot: string): ResumeChoice[] {
  const superseded = findSuperseded(refs);
  const cutoff = Math.max(0, refs.length - keepRecent);
  const chosen: ResumeChoice[] = [];
  refs.forEach((ref, i) => {
    if (i >= cutoff || ref.hasImage || ref.text.startsWith(COMPRESSED_PREFIX) || isDenied(ref.toolName, thresholds.denylist)) return;
    const supersededBy = superseded.get(ref.toolUseId) ?? null;
    if (judgeText(ref.toolName, ref.text, thresholds).eligible && refuseByInput(ref.toolName, ref.toolInput, savedRoot) === null) {
      chosen.push({ ref, supersededBy, live: true });
      return;
    }
    if (ref.text.length < thresholds.forkMinChars) return;
    const kind = toolKind(ref.toolName);
    if (supersededBy === null && (kind === null || kind === 'read')) return;
    if (!looksBinary(ref.text) && !readsSavedOutput(ref, savedRoot)) chosen.push({ ref, supersededBy, live: false });
  });
  return chosen;
}

/**
 * toolUseId -> the later tool that made the result's file text stale: a later change of the same
 * file, or a later Read of all of it (a range read leaves the rest of an earlier read current).
 */
export function findSuperseded(refs: readonly ToolResultRef[]): Map<string, string> {
  const superseded = new Map<string, string>();
  /** file -> results still holding its newest text */
  const open = new Map<string, ToolResultRef[]>();
  for (const ref of refs) {
    const file = filePathOf(ref);
    if (file === null) continue;
    const role = FILE_TOOLS[ref.toolName];
    // A failed call changed nothing and read nothing.
    const replacesEarlier = !ref.isError && (role === 'changes' || (role === 'reads' && !isRangeRead(ref.toolInput)));
    if (replacesEarlier) {
      for (const earlier of open.get(file) ?? []) superseded.set(earlier.toolUseId, ref.toolName);
      open.set(file, []);
    }
    if (ECHOES_FILE.has(ref.toolName) && !ref.isError) open.set(file, [...(open.get(file) ?? []), ref]);
  }
  return superseded;
}

function filePathOf(ref: ToolResultRef): string | null {
  if (!Object.hasOwn(FILE_TOOLS, ref.toolName) || !isObject(ref.toolInput)) return null;
  const input = ref.toolInput;
  const path = input.file_path ?? input.notebook_path;
  return typeof path === 'string' && path !== '' ? path : null;
}

function isRangeRead(input: unknown): boolean {
  if (!isObject(input)) return false;
  const { offset, limit } = input;
  return offset !== undefined || limit !== undefined;
}

/** A call that reads a full output recall saved: compressing it again would send the agent in circles. */
function readsSavedOutput(ref: ToolResultRef, savedRoot: string): boolean {
  return JSON.stringify(ref.toolInput ?? null).includes(savedRoot);
}
