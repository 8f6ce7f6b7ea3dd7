import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { listRecords } from '../../endless/endless-store.js';
import { estimateTokens } from '../../endless/measure-conversation.js';
import { formatCount } from '../../endless/render-compressed.js';
import { summarizeRecords, type SavingsRow } from '../../endless/summarize-records.js';
import { out, renderTable } from '../output.js';
import { openEndless } from './endless.js';

export function registerEndlessStats(endless: Command): void {
  endless
    .command('stats')
    .description('what Endless Mode replaced and saved, per session')
    .option('--session <id>', 'one session only')
    .option('--json', 'print the figures as JSON')
    .action((flags: { session?: string; json?: boolean }) => {
      const deps = openEndless('cli.endless');
      const records = listRecords(deps.home, flags.session);
      if (flags.session !== undefined && records.length === 0) throw new RecallError('NOT_FOUND', `no Endless Mode records for session ${flags.session}`);
      const { sessions, total } = summarizeRecords(records);
      if (flags.json) {
        out.json({ enabled: deps.settings.enabled, sessions, total: { ...total, savedTokens: estimateTokens(total.savedChars) } });
        return;
      }
      out.line(`endless mode ${deps.settings.enabled ? 'on' : 'off (set RECALL_ENDLESS_MODE=true or endless.enabled)'}; model ${deps.settings.ollama.model ?? '(none: reductions only)'}`);
      if (records.length === 0) {
        out.line('no compressed outputs yet');
        return;
      }
      const row = (r: SavingsRow): string[] => [
        r.sessionId, String(r.outputs), String(r.observations), String(r.reductions), String(r.pending),
        formatCount(r.originalChars), formatCount(r.compressedChars), `${formatCount(r.savedChars)} (${(r.savedShare * 100).toFixed(0)}%, ~${formatCount(estimateTokens(r.savedChars))} tokens)`,
      ];
      out.line(renderTable(['session', 'outputs', 'observed', 'reduced', 'pending', 'original chars', 'shown chars', 'saved'], [...sessions.map(row), ...(sessions.length > 1 ? [row(total)] : [])]));
    });
}
