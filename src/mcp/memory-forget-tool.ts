/** `memory_forget`: deletes one memory by id, checked and deleted under the store lock. */
import { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { formatForgotten } from './format-memories.js';
import type { McpContext } from './mcp-context.js';
import { REQUIRED } from './required.js';
import { refreshAfterChange } from './refresh-after-change.js';
import { labelOf } from './tool-scope.js';
import { forgetMemories } from '../store/forget-memories.js';

export const memoryForgetInput = z
  .object({
    id: z.string(REQUIRED).max(100).describe('The id of the memory, as memory_search or memory_recent show it.'),
  })
  .strict();

export type MemoryForgetArgs = z.infer<typeof memoryForgetInput>;

export const MEMORY_FORGET_DESCRIPTION =
  "Delete one of this project's memories that is wrong or outdated, by its id. Says what it removed. Global memories are forgotten by the user, in a terminal.";

export async function memoryForget(args: MemoryForgetArgs, ctx: McpContext): Promise<string> {
  const id = args.id.trim();
  if (id === '') throw new RecallError('INPUT_INVALID', 'the id is empty; memory_search and memory_recent show the ids');
  const { runtime } = ctx;
  const store = await runtime.store();
  const record = await runtime.withStoreLock(async () => {
    // Checked under the lock, so nothing can vanish between the check and the delete.
    const found = await store.get(id);
    // Another project's memory, or a global one every project shares, is not this server's to delete; the
    // answer does not say whether it exists.
    if (found === null || found.namespace !== ctx.project.namespace) {
      throw new RecallError('NOT_FOUND', `no memory with id ${id} in ${labelOf(ctx.project.namespace)}; nothing was forgotten`);
    }
    await forgetMemories([found], store, new Date());
    return found;
  });
  ctx.logger.log('info', 'mcp forgot a memory', { id, namespace: record.namespace });
  await refreshAfterChange([record.namespace], ctx);
  return formatForgotten(record);
}
