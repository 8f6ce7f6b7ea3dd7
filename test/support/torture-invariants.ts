/**
 * The torture suite's one invariant, checked after every scenario:
 * every job is either captured exactly once (one history line and one store row for its rule),
 * or still on disk in the spool (pending, processing or failed); the store is readable
 * (`recall list --json` and `recall status --json` succeed); no row is duplicated (same content in
 * the same namespace); every file in the spool parses as a job.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { statePaths } from '../../src/core/state-paths.js';
import { parseJob } from '../../src/queue/job.js';
import { runCli } from './cli.js';

/** One session the scenario ended: its id and the one rule its transcript asks for. */
export interface ExpectedCapture {
  sessionId: string;
  rule: string;
}

export type CaptureState = 'captured' | 'pending' | 'processing' | 'failed';

export interface InvariantReport {
  states: Record<CaptureState, number>;
  rows: number;
  historyLines: number;
  /** Temp files left next to job files (a write that never finished). */
  strayTempFiles: string[];
  /** Broken promises; empty when the invariant holds. */
  problems: string[];
}

interface Row {
  content: string;
  namespace: string;
  session_id: string | null;
}

interface SpoolJob {
  folder: 'pending' | 'processing' | 'failed';
  file: string;
  sessionId: string | null;
}

export async function checkInvariants(env: NodeJS.ProcessEnv, expected: readonly ExpectedCapture[]): Promise<InvariantReport> {
  const paths = statePaths(env.RECALL_HOME!);
  const problems: string[] = [];

  const status = await runCli(['status', '--json'], { env, timeoutMs: 120_000 });
  if (status.exitCode !== 0) problems.push(`recall status --json exited ${status.exitCode}: ${status.stderr.trim()}`);
  else if (!isJson(status.stdout)) problems.push(`recall status --json printed no JSON: ${status.stdout.slice(0, 200)}`);

  const list = await runCli(['list', '--json', '--limit', '1000000'], { env, timeoutMs: 120_000 });
  let rows: Row[] = [];
  if (list.exitCode !== 0) problems.push(`recall list --json exited ${list.exitCode}: ${list.stderr.trim()}`);
  else if (!isJson(list.stdout)) problems.push(`recall list --json printed no JSON: ${list.stdout.slice(0, 200)}`);
  else rows = JSON.parse(list.stdout) as Row[];

  const seen = new Map<string, number>();
  for (const row of rows) seen.set(`${row.namespace}\n${row.content}`, (seen.get(`${row.namespace}\n${row.content}`) ?? 0) + 1);
  for (const [key, count] of seen) if (count > 1) problems.push(`duplicate row x${count}: ${key.replace('\n', ' | ')}`);

  const { jobs, strayTempFiles, unparsable } = readSpool(paths);
  for (const file of unparsable) problems.push(`spool file does not parse as a job: ${file}`);

  const history = readHistoryLines(paths.historyFile);
  for (const line of history.damaged) problems.push(`damaged history line: ${line.slice(0, 120)}`);

  const states: Record<CaptureState, number> = { captured: 0, pending: 0, processing: 0, failed: 0 };
  for (const { sessionId, rule } of expected) {
    const inSpool = jobs.filter((j) => j.sessionId === sessionId);
    const rowCount = rows.filter((r) => r.content === rule).length;
    const historyCount = history.sessions.filter((s) => s === sessionId).length;
    if (inSpool.length > 1) problems.push(`${sessionId}: ${inSpool.length} job files for one session`);
    if (historyCount > 1) problems.push(`${sessionId}: captured ${historyCount} times (history)`);
    if (inSpool.length >= 1) {
      states[inSpool[0]!.folder] += 1;
      continue;
    }
    if (rowCount === 1 && historyCount === 1) {
      states.captured += 1;
      continue;
    }
    problems.push(`${sessionId}: neither captured once nor on disk (store rows ${rowCount}, history lines ${historyCount}, no job file)`);
  }
  return { states, rows: rows.length, historyLines: history.sessions.length, strayTempFiles, problems };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function readSpool(paths: ReturnType<typeof statePaths>): { jobs: SpoolJob[]; strayTempFiles: string[]; unparsable: string[] } {
  const jobs: SpoolJob[] = [];
  const strayTempFiles: string[] = [];
  const unparsable: string[] = [];
  const folders = { pending: paths.spoolPending, processing: paths.spoolProcessing, failed: paths.spoolFailed } as const;
  for (const [folder, dir] of Object.entries(folders) as Array<[SpoolJob['folder'], string]>) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (name.startsWith('.tmp-')) {
        strayTempFiles.push(file);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue; // moved by a live worker between the listing and the read
      }
      const job = parseJob(text);
      if (!job) unparsable.push(`${file} (${text.length} bytes)`);
      else jobs.push({ folder, file, sessionId: job.sessionId });
    }
  }
  return { jobs, strayTempFiles, unparsable };
}

function readHistoryLines(file: string): { sessions: Array<string | null>; damaged: string[] } {
  if (!existsSync(file)) return { sessions: [], damaged: [] };
  const sessions: Array<string | null> = [];
  const damaged: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      sessions.push((JSON.parse(line) as { sessionId: string | null }).sessionId);
    } catch {
      damaged.push(line);
    }
  }
  return { sessions, damaged };
}

/** One line for the test output. */
export function describeReport(label: string, report: InvariantReport): string {
  const s = report.states;
  return `[torture] ${label}: captured ${s.captured}, pending ${s.pending}, processing ${s.processing}, failed ${s.failed}; rows ${report.rows}; history ${report.historyLines}; stray temp files ${report.strayTempFiles.length}; problems ${report.problems.length}`;
}
