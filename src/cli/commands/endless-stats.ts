import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { listRecords } from '../../endless/endless-store.js';
import { estimateTokens } from '../../endless/measure-conversation.js';
import { formatCount } from '../../endless/render-compressed.js';
import { listSavings } from '../../endless/savings-ledger.js';
import { summarizeRecords, type SavingsRow } from '../../endless/summarize-records.js';
import { summarizeSources, type SourceRow } from '../../endless/summarize-sources.js';
import { out, renderTable } from '../output.js';
import {  } from './endless-common.js';
import { openEndless } from './open-endless.js';

export function registerEndlessStats(endless: Command): void {
  endless
    .command('stats')
    .description('what Endless Mode replaced and saved: by source (hook, backfill, fork, in place), in total, and per session')
    .option('--session <id>', 'one session only')
    .option('--json', 'print the figures as JSON')
    .action((flags: { session?: string; json?: boolean }) => {
      const deps = openEndless('cli.endless');
      const records = listRecords(deps.home, flags.session);
      const entries = listSavings(deps.home).filter((e) => flags.session === undefined || e.sessionId === flags.session);
      if (flags.session !== undefined && records.length === 0 && entries.length === 0) throw new RecallError('NOT_FOUND', `no Endless Mode records for session ${flags.session}`);
      const { sources, total } = summarizeSources(records, entries);
      const { sessions, total: stored } = summarizeRecords(records);
      if (flags.json) {
        const withTokens = (row: SourceRow) => ({ ...row, savedTokens: estimateTokens(row.savedChars) });
        out.json({
          enabled: deps.settings.enabled,
          sources: sources.map(withTokens),
          total: { ...withTokens(total), counts: ['hook', 'fork', 'in-place'] },
          sessions,
          storedOutputs: { ...stored, savedTokens: estimateTokens(stored.savedChars) },
        });
        return;
      }
      out.line(`endless mode ${deps.settings.enabled ? 'on' : 'off (set RECALL_ENDLESS_MODE=true or endless.enabled)'}; model ${deps.settings.ollama.model ?? '(none: reductions only)'}`);
      if (records.length === 0 && entries.length === 0) {
        out.line('no compressed outputs yet');
        return;
      }
      out.line(renderTable(['source', 'runs', 'outputs', 'original chars', 'shown chars', 'saved', 'on resume'], [...sources, total].map(sourceCells)));
      out.line('total: the hook, forks and in-place rewrites; backfill writes observations that save nothing until a fork shows them (the fork counts them).');
      if (sessions.length === 0) return;
      const row = (r: SavingsRow): string[] => [
        r.sessionId, String(r.outputs), String(r.observations), String(r.reductions), String(r.pending),
        formatCount(r.originalChars), formatCount(r.compressedChars), saved(r.savedChars, r.savedShare),
      ];
      out.line('');
      out.line('stored outputs per session (replaced by the hook: observed, reduced):');
      out.line(renderTable(['session', 'outputs', 'observed', 'reduced', 'pending', 'original chars', 'shown chars', 'saved'], [...sessions.map(row), ...(sessions.length > 1 ? [row(stored)] : [])]));
    });
}

function sourceCells(r: SourceRow): string[] {
  const name = r.source === 'in-place' ? 'in place' : r.source === 'backfill' ? 'backfill (ready)' : r.source;
  return [
    name, r.runs === null ? '' : String(r.runs), String(r.outputs), formatCount(r.originalChars), formatCount(r.shownChars),
    saved(r.savedChars, r.savedShare), r.resumeSavedChars === null ? '' : formatCount(r.resumeSavedChars),
  ];
}

function saved(chars: number, share: number): string {
  return `${formatCount(chars)} (${(share * 100).toFixed(0)}%, ~${formatCount(estimateTokens(chars))} tokens)`;
}
