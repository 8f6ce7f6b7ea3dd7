import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { detectAgent } from '../../hook/hook-agent.js';
import { transcriptReadError } from '../../transcript/read-transcript.js';
import { captureTranscript } from '../../worker/capture.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { refreshAfterWrite } from './refresh-after-write.js';

export function registerCapture(program: Command): void {
  program
    .command('capture <transcript>')
    .description('capture memories from a transcript now, in the foreground (the same pipeline the worker runs)')
    .option('--cwd <dir>', 'project directory the session ran in (decides the namespace)', process.cwd())
    .option('--session-id <id>', 'session id to record with the memories')
    .option('--json', 'print the result as JSON')
    .action(async (transcript: string, opts: { cwd: string; sessionId?: string; json?: boolean }) => {
      const path = resolve(transcript);
      checkTranscriptFile(path);
      await withRuntime(async (runtime, logger) => {
        const result = await captureTranscript(
          { transcriptPath: path, cwd: resolve(opts.cwd), sessionId: opts.sessionId ?? null, source: detectAgent([], {}, path) },
          runtime,
        );
        logger.log('info', 'capture from the command line', { transcript: path, status: result.status });
        if (result.status === 'stored') await refreshAfterWrite([result.namespace], runtime, logger);
        if (opts.json) {
          out.json(result.status === 'stored' ? { ...result, inserted: result.inserted.map(({ id, content, type }) => ({ id, content, type })) } : result);
          return;
        }
        if (result.status === 'skipped') {
          out.line(`skipped: ${result.why}`);
          return;
        }
        const held = result.quarantined > 0 ? `, ${result.quarantined} held for review (recall review)` : '';
        out.line(`${result.namespace}: ${result.extracted} extracted, ${result.inserted.length} new, ${result.reinforced} reinforced, ${result.superseded} replacing older versions, ${result.skipped} duplicates in the batch${held}`);
        if (result.dropped > 0) out.line(`  (${result.dropped} more memories than extract.maxMemories left out: the least important)`);
        for (const memory of result.inserted) out.line(`  + [${memory.type}] ${memory.content}`);
        if (result.redactions > 0) out.line(`  (${result.redactions} secrets redacted)`);
      });
    });
}

/** A missing or unreadable transcript is the first thing to report, before any model or store is needed. */
function checkTranscriptFile(path: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (err) {
    throw transcriptReadError(err, path);
  }
  if (isFolder) throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is a folder, not a transcript`);
}
