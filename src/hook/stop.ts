/**
 * Stop (Codex, after every turn): note that the session is open and where its rollout is, so that a
 * session which ends without a SessionEnd hook (a killed process, a closed terminal) is still captured at
 * a later SessionStart once it has been idle (session-ledger.ts). Node built-ins only; answers `{}`, which
 * lets the turn end as it would.
 */
import { fileLogger } from '../core/log.js';
import { statePaths } from '../core/state-paths.js';
import { markSessionOpen } from '../queue/session-ledger.js';
import { detectAgent } from './hook-agent.js';
import type { HookContext } from './hook-context.js';
import { parseHookInput } from './hook-input.js';

export async function stopHook(ctx: HookContext): Promise<Record<string, unknown>> {
  const parsed = parseHookInput(ctx.stdin.text);
  if (!parsed.ok || parsed.input.sessionId === null || parsed.input.transcriptPath === null) {
    fileLogger(statePaths(ctx.home).logFile, 'hook.stop').log('warn', `ignored Stop payload: ${parsed.ok ? 'no session_id or transcript_path' : parsed.problem}`);
    return {};
  }
  const { sessionId, transcriptPath, cwd } = parsed.input;
  markSessionOpen(ctx.home, { sessionId, transcriptPath, cwd, agent: detectAgent(ctx.args, ctx.env, transcriptPath), stoppedAt: Date.now() });
  return {};
}
