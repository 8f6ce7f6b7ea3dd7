/** recall's hooks present in an agent's settings files. Pure: the files come in already read. */
import { recallHookName, type AgentTarget, type HookName } from '../install/recall-hooks.js';
import type { CheckResult } from './check-result.js';

export type SettingsFileProbe =
  | { path: string; state: 'missing' }
  | { path: string; state: 'invalid'; message: string }
  | { path: string; state: 'read'; settings: unknown };

const AGENT_TITLES: Record<AgentTarget, string> = { claude: 'Hooks (Claude Code)', factory: 'Hooks (Factory)' };

/** The recall hooks (session-end, session-start, ...) that a parsed settings object runs. */
export function findRecallHooks(settings: unknown): HookName[] {
  const found = new Set<HookName>();
  const hooks = isObject(settings) ? settings.hooks : undefined;
  if (!isObject(hooks)) return [];
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const hook of group.hooks) {
        const name = isObject(hook) ? recallHookName(hook.command) : null;
        if (name) found.add(name);
      }
    }
  }
  return [...found].sort();
}

export function checkHooks(agent: AgentTarget, files: readonly SettingsFileProbe[]): CheckResult {
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
    return {
      ...base,
      status: 'warn',
      detail: `not installed: no recall session-end hook in ${files.map((f) => f.path).join(', ')}`,
      fix: agent === 'claude' ? 'recall install' : 'recall install --target factory',
    };
  }
  return { ...base, status: 'ok', detail: installed.map((f) => `${f.hooks.join(', ')} in ${f.path}`).join('; ') };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
