import { join } from 'node:path';
import type { Command } from 'commander';
import { damagedHead, setAsideDamaged, setAsideFiles, unreadableDataFiles } from '../../adapters/lance-versions.js';
import { TABLE } from '../../adapters/lance-rows.js';
import { RecallError } from '../../core/errors.js';
import type { Runtime } from '../../app/runtime.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';

interface DataRepair {
  /** Damaged data files found (fragments whose rows cannot be read). */
  damagedFragments: number;
  kept: number;
  lost: number;
  textIndex: 'ok' | 'damaged' | 'none';
  rewritten: boolean;
  textIndexRebuilt: boolean;
  /** Where unreadable data files were moved, or null. */
  dataSetAside: string | null;
  /** Memories replaced by a memory that no longer exists, made current again (or, in a dry run, found). */
  danglingRelinked: number;
}

export function registerRepair(program: Command): void {
  program
    .command('repair')
    .description('bring a damaged local memory table back: set aside a damaged newest version (unreadable manifest) or unreadable data files, keeping every row that can still be read, rebuild a damaged text index, and make current again memories replaced by a memory that no longer exists; nothing is deleted')
    .option('--dry-run', 'say what would be done, change nothing')
    .option('--json', 'print what was done as JSON')
    .action(async (opts: { dryRun?: boolean; json?: boolean }) => {
      await withRuntime(async (runtime) => {
        const location = runtime.storeLocation();
        if (location.kind !== 'local') {
          throw new RecallError('INPUT_INVALID', `recall repair works on a local store; for ${location.uri}, restore the previous object versions of the bucket instead`);
        }
        const tableDir = join(location.uri, `${TABLE}.lance`);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const outcome = await runtime.withStoreLock(async () => {
          const { damaged, lastGood } = damagedHead(tableDir);
          if (damaged.length > 0 && lastGood === null) {
            throw new RecallError('STORE_CORRUPT', `no version of the memory table in ${location.uri} is readable; restore it from a backup or a \`recall export\` file`);
          }
          const versions = damaged.map((f) => Number(f.version));
          if (damaged.length === 0 || opts.dryRun) return { setAside: versions, dir: null, backTo: lastGood === null ? null : Number(lastGood.version) };
          const { dir } = setAsideDamaged(location.uri, TABLE, damaged, stamp);
          return { setAside: versions, dir, backTo: Number(lastGood?.version) };
        });
        // Opened only now, so LanceDB sees the table as it is after the manifest repair.
        const data = outcome.backTo === null || (opts.dryRun && outcome.setAside.length > 0) ? null : await repairData(runtime, opts.dryRun === true);
        const memories = outcome.setAside.length === 0 || opts.dryRun ? null : await (await runtime.store()).count();
        const result = { ...outcome, dryRun: opts.dryRun === true, memories, data };
        if (opts.json) {
          out.json(result);
          return;
        }
        if (outcome.setAside.length === 0 && (data === null || (data.damagedFragments === 0 && data.textIndex !== 'damaged' && data.danglingRelinked === 0))) {
          out.line(outcome.backTo === null ? `no memory table in ${location.uri} yet; nothing to repair` : `the memory table (v${outcome.backTo}) reads whole, text index included; nothing to repair`);
          return;
        }
        if (outcome.setAside.length > 0) {
          const list = outcome.setAside.map((v) => `v${v}`).join(', ');
          if (opts.dryRun) out.line(`would set aside ${list} and go back to v${outcome.backTo} (dry run: nothing changed)`);
          else {
            out.line(`set aside ${list} in ${outcome.dir}; the memory table is back at v${outcome.backTo} with ${memories} memories`);
            out.line('memories written by the damaged version are not in the table; queued captures run again with `recall drain`');
          }
        }
        if (data !== null) for (const line of describeDataRepair(data, opts.dryRun === true)) out.line(line);
      });

    });
}

function describeDataRepair(data: DataRepair, dryRun: boolean): string[] {
  const lines: string[] = [];
  if (data.danglingRelinked > 0) {
    const n = data.danglingRelinked;
    lines.push(dryRun
      ? `${n} ${n === 1 ? 'memory is' : 'memories are'} marked as replaced by a memory that no longer exists: would make ${n === 1 ? 'it' : 'them'} current again (dry run: nothing changed)`
      : `${n} ${n === 1 ? 'memory was' : 'memories were'} marked as replaced by a memory that no longer exists and ${n === 1 ? 'is' : 'are'} current again`);
  }
  if (data.damagedFragments > 0) {
    const files = `${data.damagedFragments} data file${data.damagedFragments === 1 ? '' : 's'}`;
    if (dryRun) lines.push(`${files} cannot be read: would keep the ${data.kept} memories that can still be read; ${data.lost} would be lost (dry run: nothing changed)`);
    else {
      lines.push(`${files} could not be read: the memory table now holds the ${data.kept} memories that could still be read; ${data.lost} ${data.lost === 1 ? 'was' : 'were'} lost (restore them from a \`recall export\` file if you have one)`);
      if (data.dataSetAside !== null) lines.push(`the unreadable data files are set aside in ${data.dataSetAside}`);
    }
  }
  // With damaged data files the index is built again with the rewritten table.
  if (data.textIndex === 'damaged' && data.damagedFragments === 0) lines.push(dryRun ? 'the text index does not load: would rebuild it (dry run: nothing changed)' : 'the text index did not load: rebuilt it');
  return lines;
}

/** Damaged data files and text index, found by reading the whole table; repaired unless a dry run. */
async function repairData(runtime: Runtime, dryRun: boolean): Promise<DataRepair | null> {
  const location = runtime.storeLocation();
  const { openLanceStore } = await import('../../adapters/lance-store.js');
  const store = await openLanceStore(location);
  try {
    if (dryRun) {
      const health = await store.inspectDamage();
      if (health === null) return null;
      // A damaged table cannot be read for its links; the rewrite comes first, then the links are checked.
      const dangling = health.damagedFragments.length > 0 ? 0 : (await store.danglingVersions()).length;
      return { damagedFragments: health.damagedFragments.length, kept: health.readableRows, lost: health.rows - health.readableRows, textIndex: health.textIndex, rewritten: false, textIndexRebuilt: false, dataSetAside: null, danglingRelinked: dangling };
    }
    return await runtime.withStoreLock(async () => {
      const repair = await store.repairDamage();
      if (repair === null) return null;
      const tableDir = join(location.uri, `${TABLE}.lance`);
      const unreadable = repair.rewritten ? unreadableDataFiles(tableDir) : [];
      const dataSetAside = unreadable.length > 0 ? setAsideFiles(location.uri, unreadable, `${new Date().toISOString().replace(/[:.]/g, '-')}-data`) : null;
      const danglingRelinked = await store.relinkDanglingVersions();
      return {
        damagedFragments: repair.before.damagedFragments.length, kept: repair.kept, lost: repair.lost, textIndex: repair.before.textIndex,
        rewritten: repair.rewritten, textIndexRebuilt: repair.textIndexRebuilt, dataSetAside, danglingRelinked,
      };
    });
  } finally {
    await store.close();
  }
}
