/** `memory_store`: a memory the agent writes, stored exactly like `recall add` stores one (redacted, embedded, deduplicated). */
import { z } from 'zod';
import { MAX_MEMORY_CHARS, checkMemoryText, storeManualMemory } from '../store/store-manual-memory.js';
import { MEMORY_TYPES } from '../core/memory.js';
import { formatStored } from './format-memories.js';
import type { McpContext } from './mcp-context.js';
import { REQUIRED } from './required.js';
import { refreshAfterChange } from './refresh-after-change.js';
import { startUpkeepIfDue } from '../app/start-upkeep.js';
import { writeOrigin } from './tool-scope.js';

export const memoryStoreInput = z
  .object({
    content: z.string(REQUIRED).max(MAX_MEMORY_CHARS).describe('The memory: one self-contained sentence or two ("Use PostgreSQL 16 for the orders service.").'),
    type: z
      .enum(MEMORY_TYPES)
      .optional()
      .describe('Required (or memory_type). golden_rule: must always hold; preference: how the user likes things; decision: a choice made and why; pattern: how the code does something; session: what a session did.'),
    memory_type: z.enum(MEMORY_TYPES).optional().describe('The older name of `type`, still accepted.'),
    importance: z.number().min(0).max(1).optional().describe('0..1; default follows the type (golden_rule 1.0 ... session 0.3).'),
    namespace: z
      .string()
      .optional()
      .describe('Default: this project (global outside a project). "global" for rules that hold in every project; the user approves those (`recall review`) before any session sees them.'),
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.type === undefined && args.memory_type === undefined) ctx.addIssue({ code: 'custom', path: ['type'], message: 'Missing required argument' });
    if (args.type !== undefined && args.memory_type !== undefined && args.type !== args.memory_type) {
      ctx.addIssue({ code: 'custom', path: ['memory_type'], message: `is "${args.memory_type}" but type is "${args.type}"; give one of them` });
    }
  });

export type MemoryStoreArgs = z.infer<typeof memoryStoreInput>;

export const MEMORY_STORE_DESCRIPTION =
  'Remember something durable the user stated or the session settled, for later sessions. Secrets are redacted; ' +
  'a memory that is already known is not stored twice (the answer names the id it matched).';

export async function memoryStore(args: MemoryStoreArgs, ctx: McpContext): Promise<string> {
  const text = checkMemoryText(args.content);
  const origin = writeOrigin(args.namespace, ctx);
  // The schema makes sure one of them is there.
  const type = args.type ?? args.memory_type ?? 'pattern';
  const outcome = await storeManualMemory({ text, type, importance: args.importance }, origin, ctx.runtime);
  ctx.logger.log('info', 'mcp memory', outcome);
  await refreshAfterChange([origin.namespace], ctx);
  // As after a capture: the store's indexes follow its growth (a background process; never fails the call).
  if (outcome.status === 'stored') await startUpkeepIfDue(ctx.runtime, ctx.logger);
  return formatStored(outcome);
}
