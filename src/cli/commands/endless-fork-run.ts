/**
 * What `recall endless fork` does once its arguments and settings are known, shared by the
 * commander command (endless-fork.ts) and the fast path that runs without the command-line program
 * (endless-fork-fast.ts), so both print the very same thing. Node built-ins and recall's endless
 * modules only.
 */
import { randomUUID } from 'node:crypto';
import type { CompleteDeps } from '../../endless/complete-observation.js';
import { compressInPlace, forkSession, type ForkSummary } from '../../endless/fork-session.js';
import type { ToolResultRef } from '../../endless/fork-transcript.js';
import { estimateTokens } from '../../endless/measure-conversation.js';
import { formatCount } from '../../endless/render-compressed.js';
import { lines } from '../lines.js';
import { formatPercent, progressLine } from './endless-common.js';

export interface ForkFlags {
  inPlace?: boolean;
  keepRecent?: number;
  minChars?: number;
  readMinChars?: number;
  forkMinChars?: number;
  model: boolean;
  json?: boolean;
}

export interface ForkDeps extends CompleteDeps {
  lockStaleMs: number;
  keepRecent: number;
}

export async function runEndlessFork(path: string, flags: ForkFlags, deps: ForkDeps): Promise<void> {
  const print = progressLine(!flags.json && process.stderr.isTTY === true && flags.model);
  const settings = {
    ...deps.settings,
    minChars: flags.minChars ?? deps.settings.minChars,
    readMinChars: flags.readMinChars ?? deps.settings.readMinChars,
    forkMinChars: flags.forkMinChars ?? deps.settings.forkMinChars,
  };
  const options = {
    ...deps,
    settings,
    keepRecent: flags.keepRecent ?? deps.keepRecent,
    useModel: flags.model,
    onProgress: (done: number, total: number, ref: ToolResultRef) => print(done, total, `${ref.toolName} ${ref.toolUseId}`),
  };
  const summary = flags.inPlace ? await compressInPlace(path, options) : await forkSession(path, randomUUID(), options);
  deps.logger.log('info', flags.inPlace ? 'compressed a transcript in place' : 'forked a compressed session', { source: path, output: summary.outputPath, compressed: summary.compressed });
  if (flags.json) lines.json({ ...summary, resumeCommand: flags.inPlace ? null : `claude --resume ${summary.newSessionId}` });
  else printSummary(summary, flags.inPlace === true);
}

function printSummary(s: ForkSummary, inPlace: boolean): void {
  const what = inPlace ? `compressed ${s.sourcePath} in place` : `forked ${s.sessionId} into ${s.newSessionId}`;
  lines.line(`${what}: ${s.compressed} of ${s.results} tool results compressed (${s.observations} observations, ${s.reductions} reductions)`);
  const tokens = (chars: number): string => `${formatCount(chars)} chars (~${formatCount(estimateTokens(chars))} tokens)`;
  lines.line(`  on resume     ${tokens(s.resume.before.chars)} -> ${tokens(s.resume.after.chars)}  ${formatPercent(s.resume.before.chars, s.resume.after.chars)} (what \`claude --resume\` loads: ${formatCount(s.resume.lines)} lines${s.resume.compacted ? ' after the last compaction' : ''})`);
  lines.line(`  whole file    ${tokens(s.before.chars)} -> ${tokens(s.after.chars)}  ${formatPercent(s.before.chars, s.after.chars)} (every message, compacted ones included)`);
  if (s.resume.before.mediaChars > 0) lines.line(`  of which       ${tokens(s.resume.before.mediaChars)} of images and documents on resume (base64, left whole)`);
  lines.line(`  tool results  ${tokens(s.before.toolResultChars)} -> ${tokens(s.after.toolResultChars)}  ${formatPercent(s.before.toolResultChars, s.after.toolResultChars)}`);
  lines.line(`  compressed    ${tokens(s.replaced.before)} -> ${tokens(s.replaced.after)}  ${formatPercent(s.replaced.before, s.replaced.after)}`);
  if (s.inputsCompressed > 0) lines.line(`  file writes   ${tokens(s.inputs.before)} -> ${tokens(s.inputs.after)}  ${formatPercent(s.inputs.before, s.inputs.after)} (${s.inputsCompressed} Write/Edit inputs shortened)`);
  lines.line(`  file          ${formatCount(s.before.fileBytes)} bytes -> ${formatCount(s.after.fileBytes)} bytes  ${formatPercent(s.before.fileBytes, s.after.fileBytes)}`);
  if (s.droppedPartialTail) lines.line('  note: the last line was still being written and was left out');
  if (s.modelError) lines.line(`  note: the model was not used after: ${s.modelError}`);
  if (inPlace) {
    if (s.backupPath) lines.line(`  backup        ${s.backupPath}`);
    else lines.line('  nothing to compress; the file was not touched');
    return;
  }
  lines.line(`  written to    ${s.outputPath} (the original is unchanged)`);
  lines.line(`resume it with: ${s.cwd ? `cd ${JSON.stringify(s.cwd)} && ` : ''}claude --resume ${s.newSessionId}`);
}
