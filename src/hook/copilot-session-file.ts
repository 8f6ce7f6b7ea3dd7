/**
 * Where GitHub Copilot CLI keeps a session's events: `$COPILOT_HOME/session-state/<session id>/events.jsonl`
 * (`COPILOT_HOME` defaults to `~/.copilot`; Copilot sets it in every hook's environment). Its SessionEnd and
 * SessionStart payloads carry the session id but no transcript path (1.0.102), so the hooks find the file
 * from the id. Pure; node built-ins only.
 */
import { join } from 'node:path';

/** Copilot's session ids are UUIDs: anything that could leave the folder is refused. */
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function copilotSessionFile(env: NodeJS.ProcessEnv, sessionId: string | null): string | null {
  if (sessionId === null || !PLAIN_ID.test(sessionId) || sessionId.includes('..')) return null;
  const home = env.COPILOT_HOME?.trim() || (env.HOME?.trim() ? join(env.HOME.trim(), '.copilot') : '');
  return home === '' ? null : join(home, 'session-state', sessionId, 'events.jsonl');
}
