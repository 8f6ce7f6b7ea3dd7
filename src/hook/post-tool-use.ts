/**
 * PostToolUse (Endless Mode): replace a large tool output with a compact observation, within a
 * hard deadline. Off unless RECALL_ENDLESS_MODE or the config turns it on; when off it answers `{}`
 * after one environment look-up (and at most one small JSON file read). Node built-ins only.
 */
import { statSync } from 'node:fs';
import { describeError } from '../core/errors.js';
import { fileLogger } from '../core/log.js';
import { hookSpawnAllowed } from '../core/process-switches.js';
import { statePaths } from '../core/state-paths.js';
import { readEndlessEnabled, readEndlessSettings } from '../endless/endless-settings.js';
import { requestObservation } from '../endless/ollama-observe.js';
import type { AnswerStyle } from '../endless/compress-tool-output.js';
import { parsePostToolUsePayload } from '../endless/post-tool-use-input.js';
import { spawnDetachedCompleter } from '../endless/spawn-completer.js';
import { namedAgent } from './hook-agent.js';
import type { HookContext } from './hook-context.js';
import { CLI_ENTRY } from './spawn-worker.js';

export async function postToolUseHook(ctx: HookContext): Promise<Record<string, unknown>> {
  if (!readEndlessEnabled(ctx.env, ctx.home)) return {};
  // Loaded only when Endless Mode is on: the redactor and the compression are not the off path's cost.
  const [{ redactSecrets }, { compressToolOutput }] = await Promise.all([import('../redact/redact-secrets.js'), import('../endless/compress-tool-output.js')]);
  const logger = fileLogger(statePaths(ctx.home).logFile, 'hook.post-tool-use', { redact: (line) => redactSecrets(line).text });
  const { settings, problems } = readEndlessSettings(ctx.env, ctx.home);
  for (const problem of problems) logger.log('warn', `endless settings: ${problem}`);
  if (!settings.enabled) return {};
  const parsed = parsePostToolUsePayload(ctx.stdin.text, transcriptSize);
  if (!parsed.ok) {
    logger.log('warn', `ignored PostToolUse payload: ${parsed.problem}`, { truncated: ctx.stdin.truncated, bytes: ctx.stdin.text.length });
    return {};
  }
  const spawnAllowed = hookSpawnAllowed(ctx.env);
  return compressToolOutput(parsed.payload, settings, {
    home: ctx.home,
    now: () => Date.now(),
    deadlineAt: answerDeadline(performance.timeOrigin, settings.syncTimeoutMs),
    observe: requestObservation,
    logger,
    answerStyle: answerStyleFor(namedAgent(ctx.args)),
    spawnCompleter: (sessionId, toolUseId) =>
      spawnAllowed ? spawnDetachedCompleter(CLI_ENTRY, ctx.env, ctx.home, sessionId, toolUseId) : Promise.resolve(false),
  }).catch((err: unknown) => {
    logger.log('error', `PostToolUse failed, output left whole: ${describeError(err)}`);
    return {};
  });
}

/** How an agent takes a replacement output (compress-tool-output.ts). */
function answerStyleFor(agent: ReturnType<typeof namedAgent>): AnswerStyle {
  if (agent === 'codex' || agent === 'gemini') return 'block-reason';
  if (agent === 'copilot') return 'modified-result';
  if (agent === 'qwen') return 'stop-reason';
  return 'updated-tool-output';
}

/** The transcript's size in bytes: where the session stood when the tool ran (for a payload without an id). */
function transcriptSize(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/**
 * When the answer must be decided, counted from the process start (node start-up and the stdin read
 * count against the deadline too), less a reserve for the reduction, the writes and the exit.
 */
export function answerDeadline(processStart: number, syncTimeoutMs: number): number {
  const reserve = Math.min(1_000, Math.max(100, syncTimeoutMs * 0.1));
  return processStart + syncTimeoutMs - reserve;
}
