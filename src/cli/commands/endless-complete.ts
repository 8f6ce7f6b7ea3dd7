import type { Command } from 'commander';
import { join } from 'node:path';
import { describeError } from '../../core/errors.js';
import { completeStoredEntry, pendingRecords, type CompleteDeps } from '../../endless/complete-observation.js';
import { endlessRoot } from '../../endless/endless-store.js';
import { isSystemicFailure } from '../../endless/prepare-replacements.js';
import { tryLock } from '../../adapters/file-lock.js';
import {  } from './endless-common.js';
import { openEndless } from './open-endless.js';
import { setExitCode } from '../terminal.js';

/**
 * The background completion the PostToolUse hook starts when the model missed the deadline. One at
 * a time (a lock), so a burst of slow outputs does not pile concurrent calls onto Ollama: a second
 * completer exits at once, and the holder looks for waiting outputs before and after letting go.
 * Each output is tried at most once per run. Logs only.
 */
export function registerEndlessComplete(endless: Command): void {
  endless
    .command('complete <session> <toolUseId>', { hidden: true })
    .description('finish an observation in the background (started by the PostToolUse hook)')
    .action(async (session: string, toolUseId: string) => {
      const deps = openEndless('endless.complete');
      const tried = new Set<string>();
      try {
        for (let round = 0; round < 5; round += 1) {
          const release = await tryLock(join(endlessRoot(deps.home), 'locks'), 'complete', { waitMs: 0, staleMs: deps.lockStaleMs });
          if (!release) return;
          try {
            if (round === 0) await completeOnce(deps, session, toolUseId, tried);
            for (const record of pendingRecords(deps.home)) {
              if (!(await completeOnce(deps, record.sessionId, record.toolUseId, tried))) break;
            }
          } finally {
            await release();
          }
          if (pendingRecords(deps.home).every((r) => tried.has(`${r.sessionId}/${r.toolUseId}`))) return;
        }
      } catch (err) {
        deps.logger.log('error', `background completion stopped: ${describeError(err)}`);
        setExitCode(1);
      }
    });
}

/** False when Ollama is down or lacks the model: nothing else is worth trying now. */
async function completeOnce(deps: CompleteDeps, sessionId: string, toolUseId: string, tried: Set<string>): Promise<boolean> {
  const key = `${sessionId}/${toolUseId}`;
  if (tried.has(key)) return true;
  tried.add(key);
  const record = await completeStoredEntry(sessionId, toolUseId, deps);
  deps.logger.log('info', record?.observation ? 'observation completed in the background' : 'no observation in the background', {
    toolUseId,
    lastError: record ? record.lastError : 'nothing saved under these ids',
  });
  return !isSystemicFailure(record?.lastError ?? null);
}
