import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { detectAgent } from '../../hook/hook-agent.js';
import { GLOBAL_NAMESPACE, PROJECT_MARKERS, resolveProject } from '../../project/resolve-project.js';
import { readSessionOrigin } from '../../transcript/read-session-origin.js';
import { checkTranscriptFile } from '../../transcript/check-transcript-file.js';
import { sessionFilesHelp } from '../session-files-help.js';
import { captureTranscript } from '../../worker/capture.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { withVersionMark } from './list.js';
import { refreshAfterWrite } from './refresh-after-write.js';
import { startUpkeepIfDue } from '../../app/start-upkeep.js';

export function registerCapture(program: Command): void {
  program
    .command('capture <transcript>')
    .description('capture memories from a transcript now, in the foreground (the same pipeline the worker runs)')
    .option('--cwd <dir>', "project directory the session ran in (decides the namespace; default: the cwd the transcript records)")
    .option('--session-id <id>', 'session id to record with the memories (default: the one the transcript records)')
    .option('--global', "file the memories as global, for every project (when the session's project cannot be told)")
    .option('--json', 'print the result as JSON')
    .addHelpText('after', sessionFilesHelp())
    .action(async (transcript: string, opts: { cwd?: string; sessionId?: string; global?: boolean; json?: boolean }) => {
      const path = resolve(transcript);
      // What the file is comes first: before the project, the model or the store is asked for.
      await checkTranscriptFile(path);
      if (opts.global === true && opts.cwd !== undefined) throw new RecallError('INPUT_INVALID', '--global and --cwd name two different places: give one of them');
      const recorded = opts.cwd === undefined || opts.sessionId === undefined ? await readSessionOrigin(path) : { cwd: null, sessionId: null };
      const cwd = opts.global === true ? null : opts.cwd !== undefined ? resolve(opts.cwd) : recorded.cwd;
      if (opts.global !== true) refuseUnknownProject(path, cwd, opts.cwd !== undefined);
      const sessionId = opts.sessionId ?? recorded.sessionId;
      await withRuntime(async (runtime, logger) => {
        const result = await captureTranscript({ transcriptPath: path, cwd, sessionId, source: detectAgent([], {}, path) }, runtime);
        logger.log('info', 'capture from the command line', { transcript: path, status: result.status });
        if (result.status === 'skipped' && result.reason === 'not-transcript') throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is ${result.why}`);
        if (result.status === 'stored') {
          await refreshAfterWrite([result.namespace], runtime, logger);
          await startUpkeepIfDue(runtime, logger);
        }
        if (opts.json) {
          out.json(result.status === 'stored' ? { ...result, inserted: result.inserted.map(({ id, content, type, status }) => ({ id, content, type, held: status === 'quarantined' })) } : result);
          return;
        }
        if (result.status === 'skipped') {
          out.line(`skipped: ${result.why}`);
          return;
        }
        const held = result.quarantined > 0 ? `, ${result.quarantined} held for review (recall review)` : '';
        out.line(`${result.namespace}: ${result.extracted} extracted, ${result.inserted.length} new, ${result.reinforced} reinforced, ${result.superseded} replacing older versions, ${result.skipped} duplicates in the batch${held}`);
        if (result.dropped > 0) out.line(`  (${result.dropped} more memories than extract.maxMemories left out: the least important)`);
        for (const memory of result.inserted) out.line(`  + [${memory.type}] ${withVersionMark(memory)}`);
        if (result.redactions > 0) out.line(`  (${result.redactions} secrets redacted)`);
      });
    });
}

/**
 * A session whose project cannot be told would be filed as global, and every project would then receive its
 * memories: refuse, saying why, unless the user asked for global with --global.
 */
function refuseUnknownProject(path: string, cwd: string | null, given: boolean): void {
  if (resolveProject(cwd).namespace !== GLOBAL_NAMESPACE) return;
  const fix = 'Pass --cwd <project folder>, or --global to file its memories for every project.';
  let why: string;
  if (cwd === null) why = 'the transcript records no working directory';
  else if (!existsSync(cwd)) why = given ? `${cwd} (--cwd) does not exist` : `the session ran in ${cwd}, which does not exist on this machine`;
  else why = `${cwd} is not inside a project (no ${PROJECT_MARKERS.join(', ')} in it or above it, below the home folder)`;
  throw new RecallError('INPUT_INVALID', `cannot tell which project ${path} belongs to: ${why}. ${fix}`);
}
