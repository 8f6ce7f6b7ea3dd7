import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { resolveScope } from '../../search/resolve-scope.js';
import type { Runtime } from '../../app/runtime.js';
import { withRuntime } from '../context.js';
import { unknownIds } from './no-results.js';
import { out } from '../output.js';
import { canAsk, confirm } from './confirm.js';
import { refreshAfterWrite } from './refresh-after-write.js';
import { forgetMemories } from '../../store/forget-memories.js';
import { setExitCode } from '../terminal.js';

interface ForgetFlags {
  namespace?: string;
  all?: boolean;
  chain?: boolean;
  yes?: boolean;
  json?: boolean;
}

/** More ids than this in one call is a script that should batch; the delete stays one commit. */
const MAX_IDS = 500;

export function registerForget(program: Command): void {
  program
    .command('forget [ids...]')
    .description('delete memories by id, or every memory of a namespace with --namespace NS --all')
    .option('--namespace <ns>', 'with --all: the namespace to empty')
    .option('--all', 'delete every memory of --namespace')
    .option('--chain', 'with ids: delete every version of each memory too (by default an older version becomes current again)')
    .option('-y, --yes', 'do not ask for confirmation (required with --all when there is no terminal)')
    .option('--json', 'print what was deleted as JSON')
    .action(async (ids: string[], opts: ForgetFlags) => {
      const wanted = [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))];
      if (opts.all) {
        if (wanted.length > 0) throw new RecallError('INPUT_INVALID', 'give either ids or --namespace NS --all, not both');
        if (opts.namespace === undefined) throw new RecallError('INPUT_INVALID', '--all needs --namespace NS');
        if (opts.chain) throw new RecallError('INPUT_INVALID', '--chain goes with ids, not with --all');
      } else {
        if (opts.namespace !== undefined) throw new RecallError('INPUT_INVALID', '--namespace needs --all (to forget single memories, give their ids)');
        if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'give the id(s) of the memories to forget, or --namespace NS --all');
        if (wanted.length > MAX_IDS) throw new RecallError('INPUT_INVALID', `at most ${MAX_IDS} ids at once, got ${wanted.length}`);
      }
      await withRuntime(async (runtime, logger) => {
        if (opts.all) await forgetNamespace(opts.namespace ?? '', opts, runtime, logger);
        else await forgetIds(wanted, opts, runtime, logger);
      });
    });
}

async function forgetIds(ids: string[], opts: ForgetFlags, runtime: Runtime, logger: Logger): Promise<void> {
  const store = await runtime.store();
  const found = await runtime.withStoreLock(async () => {
    // Checked under the lock, so nothing can vanish between the check and the delete.
    const records = await store.getMany(ids);
    const known = new Set(records.map((r) => r.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new RecallError('NOT_FOUND', `${await unknownIds(store, missing)}; nothing was forgotten`);
    }
    return forgetMemories(records, store, new Date(), { wholeChain: opts.chain === true });
  });
  const forgotten = found.forgotten.map((r) => r.id);
  logger.log('info', 'forgot memories', { ids: forgotten, current: found.current });
  await refreshAfterWrite(found.forgotten.map((r) => r.namespace), runtime, logger);
  if (opts.json) out.json(found.current.length === 0 ? { forgotten } : { forgotten, current_again: found.current });
  else {
    out.line(`forgot ${forgotten.length} memor${forgotten.length === 1 ? 'y' : 'ies'}`);
    if (found.current.length > 0) out.line(`current again (the previous version): ${found.current.join(', ')}`);
  }
}

async function forgetNamespace(namespace: string, opts: ForgetFlags, runtime: Runtime, logger: Logger): Promise<void> {
  const store = await runtime.store();
  const ns = (await resolveScope({ namespace }, { store, cwd: process.cwd(), now: new Date() })).namespace ?? namespace;
  const count = await store.count({ namespace: ns, allVersions: true });
  if (count === 0) {
    if (opts.json) out.json({ namespace: ns, forgotten: 0 });
    else out.line(`${ns} holds no memories`);
    return;
  }
  if (!opts.yes) {
    if (!canAsk()) {
      throw new RecallError('INPUT_INVALID', `refusing to forget all ${count} memories of ${ns} without --yes (no terminal to confirm on)`);
    }
    if (!(await confirm(`Forget all ${count} memories of ${ns}?`))) {
      out.line('nothing was forgotten');
      setExitCode(1);
      return;
    }
  }
  const deleted = await runtime.withStoreLock(() => store.deleteNamespace(ns));
  logger.log('info', 'forgot a namespace', { namespace: ns, deleted });
  await refreshAfterWrite([ns], runtime, logger);
  if (opts.json) out.json({ namespace: ns, forgotten: deleted });
  else out.line(`forgot ${deleted} memor${deleted === 1 ? 'y' : 'ies'} of ${ns}`);
}
