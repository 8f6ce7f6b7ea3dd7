/** recall's hooks present in an agent's settings files. Pure: the files come in already read. */
import { resolve } from 'node:path';
import { CODEX_TRUST_NOTE, NO_LIVE_ENDLESS_NOTE, QWEN_CAPTURE_NOTE, quoteForShell, recallHookHome, recallHookName, replacesToolOutput, type AgentTarget, type HookName } from '../install/recall-hooks.js';
import type { CheckResult } from './check-result.js';
import { isObject } from '../core/is-object.js';

/** Whether the agent is on this machine: its settings folder, or its program on PATH. */
export interface AgentPresence {
  found: boolean;
  /** The folder and program looked for, named when neither is there. */
  dir: string;
  binary: string;
}

export type SettingsFileProbe =
  | { path: string; state: 'missing' }
  | { path: string; state: 'invalid'; message: string }
  | { path: string; state: 'read'; settings: unknown };

const AGENT_TITLES: Record<AgentTarget, string> = { claude: 'Hooks (Claude Code)', factory: 'Hooks (Factory)', codex: 'Hooks (Codex)', gemini: 'Hooks (Gemini CLI)', copilot: 'Hooks (Copilot CLI)', qwen: 'Hooks (Qwen Code)' };

/** The recall hooks (session-end, session-start, ...) that a parsed settings object runs. */
export function findRecallHooks(settings: unknown): HookName[] {
  return [...new Set(hookCommands(settings).flatMap((command) => recallHookName(command) ?? []))].sort();
}

/** Every hook command in a parsed settings object, in order. */
function hookCommands(settings: unknown): unknown[] {
  const hooks = isObject(settings) ? settings.hooks : undefined;
  if (!isObject(hooks)) return [];
  return Object.values(hooks).flatMap((groups) =>
    Array.isArray(groups) ? groups.flatMap((group) => (isObject(group) && Array.isArray(group.hooks) ? group.hooks.map((hook) => (isObject(hook) ? hook.command : null)) : [])) : [],
  );
}

/**
 * `home` is the state dir this doctor looks at: a session-end hook installed with another
 * RECALL_HOME captures elsewhere, so the other checks (queue, config, database) miss its sessions.
 */
export function checkHooks(agent: AgentTarget, files: readonly SettingsFileProbe[], home: string, presence?: AgentPresence): CheckResult {
  const base = { id: `hooks-${agent}`, title: AGENT_TITLES[agent] } as const;
  const invalid = files.filter((f): f is Extract<SettingsFileProbe, { state: 'invalid' }> => f.state === 'invalid');
  if (invalid.length > 0) {
    return {
      ...base,
      status: 'fail',
      detail: invalid.map((f) => f.message).join('; '),
      fix: `repair the JSON in ${invalid.map((f) => f.path).join(' and ')} (the agent cannot read it either)`,
    };
  }
  const installed = files.flatMap((f) => (f.state === 'read' ? [{ path: f.path, hooks: findRecallHooks(f.settings) }] : [])).filter((f) => f.hooks.length > 0);
  if (!installed.some((f) => f.hooks.includes('session-end'))) {
    // An agent that is not on this machine has nothing to warn about; a settings file of it counts as being there.
    if (presence !== undefined && !presence.found && files.every((f) => f.state === 'missing')) {
      return { ...base, status: 'info', detail: `not installed: the agent is not on this machine (no ${presence.dir}, no \`${presence.binary}\` on PATH)` };
    }
    return {
      ...base,
      status: 'warn',
      detail: `not installed: no recall session-end hook in ${files.map((f) => f.path).join(', ')}`,
      fix: agent === 'claude' ? 'recall install' : `recall install --target ${agent}`,
    };
  }
  const detail = installed.map((f) => `${f.hooks.join(', ')} in ${f.path}`).join('; ');
  const first = files
    .flatMap((f) => (f.state === 'read' ? hookCommands(f.settings).map((command) => ({ path: f.path, command })) : []))
    .map(({ path, command }) => ({ path, home: recallHookName(command) === 'session-end' ? recallHookHome(command) : null }))
    .find((hook): hook is { path: string; home: string } => hook.home !== null && resolve(hook.home) !== resolve(home));
  if (first !== undefined) {
    return {
      ...base,
      status: 'warn',
      detail: `${detail}; the session-end hook in ${first.path} captures into RECALL_HOME=${first.home}, not into ${home}, which these checks look at`,
      fix: `check that state dir with RECALL_HOME=${quoteForShell(first.home)} recall doctor, or run recall install from this shell to capture into ${home}`,
    };
  }
  const useless = replacesToolOutput(agent) ? undefined : installed.find((f) => f.hooks.includes('post-tool-use'));
  if (useless !== undefined) {
    return { ...base, status: 'warn', detail: `${detail}; ${NO_LIVE_ENDLESS_NOTE}, and the one in ${useless.path} only costs time`, fix: `remove the PostToolUse entry that runs \`recall hook post-tool-use\` from ${useless.path} (\`recall uninstall --endless\` would also switch Endless Mode off for Claude Code)` };
  }
  const notes = [detail, ...(replacesToolOutput(agent) ? [] : [NO_LIVE_ENDLESS_NOTE]), ...(agent === 'codex' ? [CODEX_TRUST_NOTE] : []), ...(agent === 'qwen' ? [QWEN_CAPTURE_NOTE] : [])];
  return { ...base, status: 'ok', detail: notes.join('; ') };
}
