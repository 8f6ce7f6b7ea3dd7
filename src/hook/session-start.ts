/**
 * SessionStart: put the project's pre-rendered memories into the new session as additionalContext.
 * Node built-ins only; reads one small file the worker wrote (never the memory store), so it costs
 * little more than starting node. Nothing to say, or anything wrong, answers `{}`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ADDITIONAL_CONTEXT_CAP, contextFilePath, MAX_CONTEXT_FILE_BYTES, parseContextFile, type ContextFile } from '../context/context-file.js';
import { fileLogger, type Logger } from '../core/log.js';
import { hookSpawnAllowed } from '../core/process-switches.js';
import { statePaths, type StatePaths } from '../core/state-paths.js';
import { GLOBAL_NAMESPACE, resolveProject } from '../project/resolve-project.js';
import { existingFallbackDirs, fallbackJobNames } from '../queue/fallback-spool.js';
import { isDue, parseJob } from '../queue/job.js';
import { jobsWaitForModel } from '../queue/waiting-marker.js';
import { isRunningOrStarting } from '../core/start-marker.js';
import { wrapRecallContext } from '../transcript/recall-markers.js';
import { adoptIdleSessions } from './adopt-idle-sessions.js';
import { namedAgent } from './hook-agent.js';
import type { HookContext } from './hook-context.js';
import { parseHookInput } from './hook-input.js';

/** Pending jobs looked at for a due one; the queue is almost always empty. */
const MAX_JOBS_CHECKED = 20;

export async function sessionStartHook(ctx: HookContext): Promise<Record<string, unknown>> {
  const paths = statePaths(ctx.home);
  const logger = fileLogger(paths.logFile, 'hook.session-start');
  const parsed = parseHookInput(ctx.stdin.text);
  if (!parsed.ok) {
    logger.log('warn', `ignored SessionStart payload: ${parsed.problem}`, { truncated: ctx.stdin.truncated });
    return {};
  }
  const { input } = parsed;
  adoptIdleSessions(paths, input.sessionId, Date.now(), logger);
  const cwd = input.cwd ?? ctx.env.CLAUDE_PROJECT_DIR ?? ctx.env.FACTORY_PROJECT_DIR ?? null;
  if (cwd === null || !isDirectory(cwd)) {
    logger.log('warn', cwd === null ? 'SessionStart payload has no cwd' : 'SessionStart cwd is not a directory', { cwd, sessionId: input.sessionId });
    return {};
  }

  await startWorkerIfDue(paths, ctx.env, logger);

  const { namespace } = resolveProject(cwd);
  const text = readContextText(paths, namespace, logger);
  if (text === null || text.trim() === '') return {};
  const additionalContext = wrapRecallContext(text);
  if (additionalContext.length > ADDITIONAL_CONTEXT_CAP) {
    logger.log('warn', 'context over the SessionStart cap; not injected', { namespace, chars: additionalContext.length });
    return {};
  }
  // GitHub Copilot CLI (1.0.102) reads a top-level additionalContext and ignores hookSpecificOutput.
  if (namedAgent(ctx.args) === 'copilot') return { additionalContext };
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } };
}

/**
 * The context text the hook hands a session of `namespace`; null when there is none or the file is damaged. A project with no file
 * yet (nothing captured in it) gets the global file's text when that file says it serves projects.
 */
export function readContextText(paths: StatePaths, namespace: string, logger: Logger): string | null {
  const own = readContextFile(paths, namespace, logger);
  if (own !== 'missing' || namespace === GLOBAL_NAMESPACE) return own === 'missing' ? null : own?.text ?? null;
  const global = readContextFile(paths, GLOBAL_NAMESPACE, logger);
  return global !== 'missing' && global?.servesProjects === true ? global.text : null;
}

/** One context file; 'missing' when there is none, null when it is damaged or unreadable. */
function readContextFile(paths: StatePaths, namespace: string, logger: Logger): ContextFile | 'missing' | null {
  const file = contextFilePath(paths.contextDir, namespace);
  let content: string;
  try {
    const { size } = statSync(file);
    if (size > MAX_CONTEXT_FILE_BYTES) {
      logger.log('warn', 'context file too large; ignored', { file, size });
      return null;
    }
    content = readFileSync(file, 'utf8');
  } catch (err) {
    // No file yet: nothing captured in this project. Not worth a log line at every session start.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    logger.log('warn', `cannot read context file: ${(err as Error).message}`, { file });
    return null;
  }
  const parsed = parseContextFile(content, namespace);
  if (parsed === null) logger.log('warn', 'damaged context file ignored; the next capture in this project rewrites it', { file });
  return parsed;
}

/**
 * Jobs waiting for a retry would otherwise wait for the next SessionEnd (the worker lingers only
 * for a while), and so would jobs left in the fallback spool by a full disk. Costs one readdir of a
 * folder that is nearly always empty and a few lstat calls; spawns only when a job is due, no live
 * worker holds the queue, and the jobs do not just wait for a model no one has configured.
 */
async function startWorkerIfDue(paths: StatePaths, env: NodeJS.ProcessEnv, logger: Logger): Promise<void> {
  if (!hookSpawnAllowed(env)) return;
  try {
    if (isRunningOrStarting(paths.home, 'worker')) return;
    const due = hasDueJob(paths);
    const adopt = hasFallbackJob(paths);
    if (!due && !adopt) return;
    // Jobs that wait for a model no one configured yet: a worker would find the same and leave.
    const waitForModel = () => !adopt && jobsWaitForModel(paths.home, paths.configFile, env);
    if (waitForModel()) return;
    // Loaded only when needed: node:child_process alone costs a few ms of start-up.
    const { spawnDetachedWorker } = await import('./spawn-worker.js');
    const started = await spawnDetachedWorker(env, paths.home, paths.home, waitForModel);
    if (started !== 'running' && started !== 'not needed') logger.log(started === 'started' ? 'info' : 'warn', started === 'started' ? 'started a worker for due queued jobs' : 'could not start the worker for due queued jobs');
  } catch (err) {
    logger.log('warn', `could not check the queue: ${(err as Error).message}`);
  }
}

function hasDueJob(paths: StatePaths): boolean {
  let names: string[];
  try {
    names = readdirSync(paths.spoolPending).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  } catch {
    return false; // No spool yet.
  }
  const now = new Date();
  return names.slice(0, MAX_JOBS_CHECKED).some((name) => {
    try {
      const job = parseJob(readFileSync(join(paths.spoolPending, name), 'utf8'));
      return job !== null && isDue(job, now);
    } catch {
      return false;
    }
  });
}

/** A job a SessionEnd hook had to queue in the fallback spool (state dir full): the worker adopts it. */
function hasFallbackJob(paths: StatePaths): boolean {
  return existingFallbackDirs(paths.home).some((dir) => fallbackJobNames(dir).length > 0);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
