/**
 * The pre-rendered SessionStart context of one namespace, as it sits on disk: where it lives, how it
 * is written and how it is read back and checked. Node built-ins only: the SessionStart hook imports this.
 *
 * JSON rather than plain text, so the hook can tell a good file from a damaged or foreign one
 * (version, namespace and size are checked) and answer `{}` instead of injecting garbage.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { wrapRecallContext } from '../transcript/recall-markers.js';

export const CONTEXT_FILE_VERSION = 1;

/** Claude Code's cap on `additionalContext`; longer text is moved to a file and only previewed. */
export const ADDITIONAL_CONTEXT_CAP = 10_000;

/** The most rendered text that still fits the cap once wrapped in the recall-context tags. */
export const MAX_CONTEXT_TEXT_CHARS = ADDITIONAL_CONTEXT_CAP - wrapRecallContext('').length;

/** Far above any good file (10,000 characters of JSON-escaped text); anything bigger is damaged. */
export const MAX_CONTEXT_FILE_BYTES = 256 * 1024;

export interface ContextFile {
  version: typeof CONTEXT_FILE_VERSION;
  namespace: string;
  generatedAt: string;
  included: number;
  omitted: number;
  text: string;
  /**
   * The global file only: true when global memories go into project sessions (`context.includeGlobal`), so a
   * project without a context file of its own (no memories yet) starts with this text.
   */
  servesProjects?: boolean;
}

/**
 * A file name safe on every filesystem: the namespace with anything but letters, digits, `_` and
 * `-` folded to `_` (readable in a listing), plus 8 hex of its sha256, so two namespaces that fold
 * alike (`project:a b-…`, `project:a_b-…`) never share a file.
 */
export function contextFileName(namespace: string): string {
  const slug = namespace.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) || '_';
  const hash = createHash('sha256').update(namespace).digest('hex').slice(0, 8);
  return `${slug}.${hash}.json`;
}

export function contextFilePath(contextDir: string, namespace: string): string {
  return join(contextDir, contextFileName(namespace));
}

export function serializeContextFile(file: ContextFile): string {
  return `${JSON.stringify(file)}\n`;
}

/**
 * Reads back a context file's JSON; null for anything that is not a well-formed file of this
 * version (or of another namespace than `expectedNamespace`), or whose text would not fit the cap.
 */
export function parseContextFile(content: string, expectedNamespace?: string): ContextFile | null {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const file = value as Record<string, unknown>;
  if (file.version !== CONTEXT_FILE_VERSION) return null;
  if (typeof file.namespace !== 'string' || file.namespace === '') return null;
  if (expectedNamespace !== undefined && file.namespace !== expectedNamespace) return null;
  if (typeof file.generatedAt !== 'string' || Number.isNaN(Date.parse(file.generatedAt))) return null;
  if (!isCount(file.included) || !isCount(file.omitted)) return null;
  if (typeof file.text !== 'string' || file.text.length > MAX_CONTEXT_TEXT_CHARS) return null;
  return {
    version: CONTEXT_FILE_VERSION,
    namespace: file.namespace,
    generatedAt: file.generatedAt,
    included: file.included,
    omitted: file.omitted,
    text: file.text,
    ...(file.servesProjects === true ? { servesProjects: true } : {}),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
