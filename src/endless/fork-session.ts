/**
 * `recall endless fork`: a compressed copy of a session under a new session id, written beside the
 * original (never touched) with an atomic rename; and `--in-place`: the same transform over the
 * original file itself, under a lock, with a backup, a validated temp file, a check that nobody
 * appended meanwhile, an atomic rename, and a restore from the backup if anything fails after it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RecallError } from '../core/errors.js';
import { writeFileAtomic } from '../queue/atomic-write.js';
import { tryLock } from '../worker/locks.js';
import { checkForkedLines } from './check-fork.js';
import { endlessRoot } from './endless-store.js';
import { applyReplacements, sessionIdsOf } from './fork-transcript.js';
import { measureConversation, type ConversationSize } from './measure-conversation.js';
import { prepareReplacements, type PrepareOptions, type Prepared } from './prepare-replacements.js';
import { readTranscriptSnapshot, type TranscriptSnapshot } from './transcript-snapshot.js';

export interface ForkSummary {
  sourcePath: string;
  outputPath: string;
  sessionId: string;
  newSessionId: string;
  results: number;
  compressed: number;
  /** Characters of the replaced tool results, before and after. */
  replaced: { before: number; after: number };
  observations: number;
  reductions: number;
  before: ConversationSize & { fileChars: number };
  after: ConversationSize & { fileChars: number };
  droppedPartialTail: boolean;
  modelError: string | null;
  /** The session's working directory, where `claude --resume` must run. */
  cwd: string | null;
  /** In-place only: where the original bytes were copied first. */
  backupPath: string | null;
}

export async function forkSession(transcriptPath: string, newSessionId: string, options: PrepareOptions): Promise<ForkSummary> {
  const snapshot = await readTranscriptSnapshot(transcriptPath);
  const prepared = await prepareReplacements(snapshot, options);
  const ids = new Map(sessionIdsOf(snapshot.records).map((id) => [id, newSessionId] as const));
  const forked = transform(snapshot, prepared, ids);
  const outputPath = join(dirname(transcriptPath), `${newSessionId}.jsonl`);
  writeFileAtomic(outputPath, `${forked.lines.join('\n')}\n`);
  return summarize(snapshot, prepared, forked, outputPath, newSessionId, null);
}

export async function compressInPlace(transcriptPath: string, options: PrepareOptions & { lockStaleMs: number }): Promise<ForkSummary> {
  const lockDir = join(endlessRoot(options.home), 'locks');
  const lockName = createHash('sha256').update(transcriptPath).digest('hex').slice(0, 24);
  const release = await tryLock(lockDir, lockName, { waitMs: 0, staleMs: options.lockStaleMs });
  if (!release) throw new RecallError('LOCK_HELD', `another recall process is compressing ${transcriptPath}`);
  try {
    const snapshot = await readTranscriptSnapshot(transcriptPath);
    const prepared = await prepareReplacements(snapshot, options);
    const forked = transform(snapshot, prepared, new Map());
    if (prepared.replacements.length === 0) return summarize(snapshot, prepared, forked, transcriptPath, prepared.sessionId, null);
    const backupPath = `${transcriptPath}.recall-backup-${new Date(options.now()).toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(transcriptPath, backupPath, constants.COPYFILE_EXCL);
    replaceValidated(transcriptPath, `${forked.lines.join('\n')}\n`, snapshot, backupPath);
    return summarize(snapshot, prepared, forked, transcriptPath, prepared.sessionId, backupPath);
  } finally {
    await release();
  }
}

interface Forked {
  lines: string[];
  records: Array<Record<string, unknown>>;
}

function transform(snapshot: TranscriptSnapshot, prepared: Prepared, ids: ReadonlyMap<string, string>): Forked {
  const lines = applyReplacements(snapshot.lines, snapshot.records, prepared.replacements, ids);
  const check = checkForkedLines(snapshot.records, lines, new Set(prepared.replacements.map((r) => r.ref.lineIndex)));
  if (!check.ok) throw new RecallError('TRANSCRIPT_UNREADABLE', `refusing to write a compressed transcript that fails its checks: ${check.problems.join('; ')}`);
  return { lines, records: check.records };
}

/** Temp file, fsync, read back and check, no append meanwhile, rename; the backup comes back on failure. */
function replaceValidated(path: string, content: string, snapshot: TranscriptSnapshot, backupPath: string): void {
  const temp = join(dirname(path), `.${basename(path)}.recall-${randomBytes(4).toString('hex')}`);
  let renamed = false;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const written = readFileSync(temp, 'utf8').split('\n').slice(0, -1);
    const check = checkForkedLines(snapshot.records, written);
    if (!check.ok) throw new RecallError('TRANSCRIPT_UNREADABLE', `the written copy fails its checks: ${check.problems.join('; ')}`);
    const now = statSync(path);
    if (now.size !== snapshot.size || now.mtimeMs !== snapshot.mtimeMs) {
      throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} changed while it was being compressed (is the session still running? use \`recall endless fork\` instead); nothing was changed`);
    }
    renameSync(temp, path);
    renamed = true;
    if (statSync(path).size !== Buffer.byteLength(content)) throw new RecallError('STATE_UNWRITABLE', `${path} does not hold what was written`);
  } catch (err) {
    rmSync(temp, { force: true });
    if (renamed) restoreBackup(path, backupPath);
    throw err;
  }
}

function restoreBackup(path: string, backupPath: string): void {
  const temp = join(dirname(path), `.${basename(path)}.recall-restore-${randomBytes(4).toString('hex')}`);
  copyFileSync(backupPath, temp);
  renameSync(temp, path);
}

function summarize(snapshot: TranscriptSnapshot, prepared: Prepared, forked: Forked, outputPath: string, newSessionId: string, backupPath: string | null): ForkSummary {
  const { lines, records: after } = forked;
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
    observations: prepared.observations,
    reductions: prepared.reductions,
    before: { ...measureConversation(snapshot.records), fileChars: snapshot.lines.reduce((n, l) => n + l.length + 1, 0) },
    after: { ...measureConversation(after), fileChars: lines.reduce((n, l) => n + l.length + 1, 0) },
    droppedPartialTail: snapshot.droppedPartialTail,
    modelError: prepared.modelError,
    cwd: (snapshot.records.find((r) => typeof r.cwd === 'string')?.cwd as string | undefined) ?? null,
    backupPath,
  };
}
