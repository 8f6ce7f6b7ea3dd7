import { join } from 'node:path';
import type { Command } from 'commander';
import { damagedHead, setAsideDamaged } from '../../adapters/lance-versions.js';
import { TABLE } from '../../adapters/lance-rows.js';
import { RecallError } from '../../core/errors.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';

export function registerRepair(program: Command): void {
  program
    .command('repair')
    .description('set aside the damaged newest version of a local memory table (unreadable manifest) so it opens again at its last good version; nothing is deleted')
    .option('--dry-run', 'say what would be set aside, change nothing')
    .option('--json', 'print what was done as JSON')
    .action(async (opts: { dryRun?: boolean; json?: boolean }) => {
      await withRuntime(async (runtime) => {
        const location = runtime.storeLocation();
        if (location.kind !== 'local') {
          throw new RecallError('INPUT_INVALID', `recall repair works on a local store; for ${location.uri}, restore the previous object versions of the bucket instead`);
        }
        const tableDir = join(location.uri, `${TABLE}.lance`);
        const outcome = await runtime.withStoreLock(async () => {
          const { damaged, lastGood } = damagedHead(tableDir);
          if (damaged.length > 0 && lastGood === null) {
            throw new RecallError('STORE_CORRUPT', `no version of the memory table in ${location.uri} is readable; restore it from a backup or a \`recall export\` file`);
          }
          const versions = damaged.map((f) => Number(f.version));
          if (damaged.length === 0 || opts.dryRun) return { setAside: versions, dir: null, backTo: lastGood === null ? null : Number(lastGood.version) };
          const { dir } = setAsideDamaged(location.uri, TABLE, damaged, new Date().toISOString().replace(/[:.]/g, '-'));
          return { setAside: versions, dir, backTo: Number(lastGood?.version) };
        });
        // Opened only now, so LanceDB sees the table as it is after the repair.
        const memories = outcome.setAside.length === 0 || opts.dryRun ? null : await (await runtime.store()).count();
        const result = { ...outcome, dryRun: opts.dryRun === true, memories };
        if (opts.json) {
          out.json(result);
          return;
        }
        if (outcome.setAside.length === 0) {
          out.line(outcome.backTo === null ? `no memory table in ${location.uri} yet; nothing to repair` : `the newest version (v${outcome.backTo}) of the memory table is readable; nothing to repair`);
          return;
        }
        const list = outcome.setAside.map((v) => `v${v}`).join(', ');
        if (opts.dryRun) {
          out.line(`would set aside ${list} and go back to v${outcome.backTo} (dry run: nothing changed)`);
          return;
        }
        out.line(`set aside ${list} in ${outcome.dir}; the memory table is back at v${outcome.backTo} with ${memories} memories`);
        out.line('memories written by the damaged version are not in the table; queued captures run again with `recall drain`');
      });
    });
}
