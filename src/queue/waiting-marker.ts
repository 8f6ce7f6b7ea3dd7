/**
 * "The queued jobs wait for the user": the worker found no extraction model configured, put the
 * jobs back untouched and left. Without this note every SessionStart would start a worker that finds
 * the same and leaves. The note holds the model setting the worker saw; it stops counting once that
 * setting or the config file changes, or after `WAITING_RECHECK_MS`. Node built-ins only: the
 * SessionStart hook reads it.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';

/** The environment variable that names the extraction model (config key ollama.llmModel). */
const MODEL_ENV = 'RECALL_OLLAMA_LLM_MODEL';
/** Past this, a worker looks again anyway (the config could have changed in a way not seen here). */
export const WAITING_RECHECK_MS = 10 * 60_000;

function notePath(home: string): string {
  return join(home, 'queue-waiting.json');
}

/** Written by the worker when jobs wait for a model; never throws. */
export function noteJobsWaiting(home: string, env: NodeJS.ProcessEnv, why: string): void {
  try {
    writeFileAtomic(notePath(home), JSON.stringify({ at: new Date().toISOString(), model: env[MODEL_ENV] ?? '', why }));
  } catch {
    // Without the note, the next session start merely starts a worker for nothing.
  }
}

/** Removed by the worker once a job could run. */
export function clearJobsWaiting(home: string): void {
  rmSync(notePath(home), { force: true });
}

/** Whether a worker started now would only find the jobs still waiting for a model. */
export function jobsWaitForModel(home: string, configFile: string, env: NodeJS.ProcessEnv, now: number = Date.now()): boolean {
  let written: number;
  let model: unknown;
  try {
    written = statSync(notePath(home)).mtimeMs;
    model = (JSON.parse(readFileSync(notePath(home), 'utf8')) as { model?: unknown }).model;
  } catch {
    return false;
  }
  if (now - written > WAITING_RECHECK_MS || model !== (env[MODEL_ENV] ?? '')) return false;
  try {
    return statSync(configFile).mtimeMs < written;
  } catch {
    return true; // No config file: the setting can only come from the environment, checked above.
  }
}
