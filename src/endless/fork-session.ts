/**
 * `recall endless fork`: a compressed copy of a session under a new session id, written beside the
 * original (never touched) with an atomic rename; and `--in-place`: the same transform over the
 * original file itself, under a lock, with a backup, a validated temp file, a check that nobody
 * appended meanwhile, an atomic rename, and a restore from the backup if anything fails after it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RecallError } from '../core/errors.js';
import { checkForkedLines } from './check-fork.js';
import { endlessRoot } from './endless-store.js';
import { applyReplacements, sessionIdsOf, type ForkedLines } from './fork-transcript.js';
import { measureRecord, sumSizes, type ConversationSize } from './measure-conversation.js';
import { isCompactBoundary, resumeChain } from './resume-chain.js';
import { prepareReplacements, type PrepareOptions, type Prepared } from './prepare-replacements.js';
import { readTranscriptSnapshot, requireClaudeSession, type TranscriptSnapshot } from './transcript-snapshot.js';
import { recordSavings } from './savings-ledger.js';
import { copyFileExclusive, restoreFile, writeFileReplacing } from './write-lines.js';

export interface ForkSummary {
  sourcePath: string;
  outputPath: string;
  sessionId: string;
  newSessionId: string;
  results: number;
  compressed: number;
  /** Characters of the replaced tool results, before and after. */
  replaced: { before: number; after: number };
  /** File-writing calls whose long input texts were left out, and their input characters before and after. */
  inputsCompressed: number;
  inputs: { before: number; after: number };
  observations: number;
  reductions: number;
  /** What `claude --resume` loads: the chain of the newest message after the last compaction (resume-chain.ts). */
  resume: { lines: number; compacted: boolean; before: ConversationSize; after: ConversationSize };
  /** The whole file's conversation, compacted parts and side chains included, and its bytes. */
  before: ConversationSize & { fileBytes: number };
  after: ConversationSize & { fileBytes: number };
  droppedPartialTail: boolean;
  modelError: string | null;
  /** The session's working directory, where `claude --resume` must run. */
  cwd: string | null;
  /** In-place only: where the original bytes were copied first. */
  backupPath: string | null;
}

export async function forkSession(transcriptPath: string, newSessionId: string, options: PrepareOptions): Promise<ForkSummary> {
  const snapshot = await readTranscriptSnapshot(transcriptPath);
  requireClaudeSession(snapshot);
  const prepared = await prepareReplacements(snapshot, options);
  const ids = new Map(sessionIdsOf(snapshot.records).map((id) => [id, newSessionId] as const));
  const forked = transform(snapshot, prepared, ids);
  const outputPath = join(dirname(transcriptPath), `${newSessionId}.jsonl`);
  writeFileReplacing(outputPath, forked.chunks, forked.size, { mode: snapshot.mode });
  return recorded(summarize(snapshot, prepared, forked, outputPath, newSessionId, null), 'fork', options);
}

export async function compressInPlace(transcriptPath: string, options: PrepareOptions & { lockStaleMs: number }): Promise<ForkSummary> {
  const lockDir = join(endlessRoot(options.home), 'locks');
  const lockName = createHash('sha256').update(transcriptPath).digest('hex').slice(0, 24);
  // proper-lockfile is loaded here only: a plain fork takes no lock and should not pay for it.
  const { tryLock } = await import('../adapters/file-lock.js');
  const release = await tryLock(lockDir, lockName, { waitMs: 0, staleMs: options.lockStaleMs });
  if (!release) throw new RecallError('LOCK_HELD', `another recall process is compressing ${transcriptPath}`);
  try {
    const snapshot = await readTranscriptSnapshot(transcriptPath);
    requireClaudeSession(snapshot);
    const prepared = await prepareReplacements(snapshot, options);
    const forked = transform(snapshot, prepared, new Map());
    if (prepared.replacements.length === 0 && prepared.inputs.length === 0) return summarize(snapshot, prepared, forked, transcriptPath, prepared.sessionId, null);
    const backupPath = `${transcriptPath}.recall-backup-${new Date(options.now()).toISOString().replace(/[:.]/g, '-')}`;
    replaceValidated(transcriptPath, forked, snapshot, backupPath);
    return recorded(summarize(snapshot, prepared, forked, transcriptPath, prepared.sessionId, backupPath), 'in-place', options);
  } finally {
    await release();
  }
}

interface Forked extends ForkedLines {
  /** The records of the rebuilt lines, parsed back from what will be written. */
  rebuiltRecords: Map<number, Record<string, unknown>>;
}

function transform(snapshot: TranscriptSnapshot, prepared: Prepared, ids: ReadonlyMap<string, string>): Forked {
  const forked = applyReplacements(snapshot.lines, snapshot.records, prepared.replacements, ids, prepared.inputs);
  const changed = new Set([...prepared.replacements.map((r) => r.ref.lineIndex), ...prepared.inputs.map((r) => r.use.lineIndex)]);
  const check = checkForkedLines(snapshot.records, snapshot.records.map((_, i) => forked.rebuilt.get(i) ?? ''), changed);
  if (!check.ok) throw new RecallError('TRANSCRIPT_UNREADABLE', `refusing to write a compressed transcript that fails its checks: ${check.problems.join('; ')}`);
  return { ...forked, rebuiltRecords: new Map([...changed].map((i) => [i, check.records[i]!] as const)) };
}

/**
 * Temp file (the original's mode), fsync, read back and check, no append meanwhile; only then the
 * backup, checked again after it, and the rename. A refusal leaves the file as it was and no backup;
 * the backup comes back if the file does not hold what was written after the rename.
 */
function replaceValidated(path: string, forked: Forked, snapshot: TranscriptSnapshot, backupPath: string): void {
  const refuseIfChanged = (): void => {
    const now = statSync(path);
    if (now.size !== snapshot.size || now.mtimeMs !== snapshot.mtimeMs) {
      throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} changed while it was being compressed (is the session still running? use \`recall endless fork\` instead); nothing was changed`);
    }
  };
  writeFileReplacing(path, forked.chunks, forked.size, {
    mode: snapshot.mode,
    beforeRename(temp) {
      const written = readFileSync(temp, 'utf8').split('\n').slice(0, -1);
      const check = checkForkedLines(snapshot.records, written);
      if (!check.ok) throw new RecallError('TRANSCRIPT_UNREADABLE', `the written copy fails its checks: ${check.problems.join('; ')}`);
      refuseIfChanged();
      copyFileExclusive(path, backupPath);
      try {
        // An append between the check and the copy would be in the backup but not in the rewrite.
        refuseIfChanged();
      } catch (err) {
        rmSync(backupPath, { force: true });
        throw err;
      }
    },
    afterRename() {
      try {
        if (statSync(path).size !== forked.size) throw new RecallError('STATE_UNWRITABLE', `${path} does not hold what was written`);
      } catch (err) {
        restoreFile(backupPath, path);
        throw err;
      }
    },
  });
}

function summarize(snapshot: TranscriptSnapshot, prepared: Prepared, forked: Forked, outputPath: string, newSessionId: string, backupPath: string | null): ForkSummary {
  const sizes = snapshot.records.map(measureRecord);
  const before = sumSizes(sizes);
  const after = withRebuilt(before, snapshot, forked, () => true);
  // The fork keeps every uuid and parentUuid, so the resumed chain is the same lines before and after.
  const chain = resumeChain(snapshot.records);
  const resumeBefore = sumSizes(chain.map((i) => sizes[i]!));
  const onChain = new Set(chain);
  const resumeAfter = withRebuilt(resumeBefore, snapshot, forked, (i) => onChain.has(i));
  return {
    sourcePath: snapshot.path,
    outputPath,
    sessionId: prepared.sessionId,
    newSessionId,
    results: prepared.results,
    compressed: prepared.replacements.length,
    replaced: {
      before: prepared.replacements.reduce((n, r) => n + r.ref.text.length, 0),
      after: prepared.replacements.reduce((n, r) => n + r.text.length, 0),
    },
    inputsCompressed: prepared.inputs.length,
    inputs: {
      before: prepared.inputs.reduce((n, r) => n + r.before, 0),
      after: prepared.inputs.reduce((n, r) => n + r.after, 0),
    },
    observations: prepared.observations,
    reductions: prepared.reductions,
    resume: { lines: chain.length, compacted: snapshot.records.some(isCompactBoundary), before: resumeBefore, after: resumeAfter },
    before: { ...before, fileBytes: byteSize(snapshot.lines) },
    after: { ...after, fileBytes: forked.size },
    droppedPartialTail: snapshot.droppedPartialTail,
    modelError: prepared.modelError,
    cwd: (snapshot.records.find((r) => typeof r.cwd === 'string')?.cwd as string | undefined) ?? null,
    backupPath,
  };
}

/** Notes what a fork or rewrite that replaced something saved, for `recall endless stats`. */
function recorded(summary: ForkSummary, source: 'fork' | 'in-place', options: PrepareOptions): ForkSummary {
  if (summary.compressed + summary.inputsCompressed === 0) return summary;
  recordSavings(options.home, {
    version: 1, source, sessionId: summary.sessionId, newSessionId: source === 'fork' ? summary.newSessionId : null,
    at: new Date(options.now()).toISOString(),
    outputs: summary.compressed + summary.inputsCompressed,
    originalChars: summary.replaced.before + summary.inputs.before,
    shownChars: summary.replaced.after + summary.inputs.after,
    resume: { beforeChars: summary.resume.before.chars, afterChars: summary.resume.after.chars },
    wholeFile: { beforeChars: summary.before.chars, afterChars: summary.after.chars },
  }, options.logger);
  return summary;
}

/** `size` with the rebuilt lines `counted` measured as rewritten: they are the only ones whose conversation changed. */
function withRebuilt(size: ConversationSize, snapshot: TranscriptSnapshot, forked: Forked, counted: (line: number) => boolean): ConversationSize {
  const out = { ...size };
  for (const [i, record] of forked.rebuiltRecords) {
    if (!counted(i)) continue;
    const was = measureRecord(snapshot.records[i]!);
    const now = measureRecord(record);
    out.chars += now.chars - was.chars;
    out.toolResultChars += now.toolResultChars - was.toolResultChars;
    out.mediaChars += now.mediaChars - was.mediaChars;
  }
  return out;
}

/** Bytes of the lines written one per line. */
function byteSize(lines: readonly Buffer[]): number {
  return lines.reduce((n, line) => n + line.length + 1, 0);
}
