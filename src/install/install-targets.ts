/**
 * Which settings files `recall install` / `uninstall` edit. Pure: the caller hands in `exists`.
 *
 * Without --target, recall picks the agents the user has (a ~/.claude or ~/.factory folder exists),
 * and Claude Code when neither exists: installing for an agent that is not there would only leave
 * a stray folder, and Claude Code is the primary agent.
 */
import { join } from 'node:path';
import type { AgentTarget } from './recall-hooks.js';

export type TargetChoice = AgentTarget | 'all';

export interface InstallTarget {
  agent: AgentTarget;
  file: string;
}

const AGENT_DIRS: Record<AgentTarget, string> = { claude: '.claude', factory: '.factory' };

export function resolveInstallTargets(options: {
  target: TargetChoice | undefined;
  project: boolean;
  home: string;
  cwd: string;
  exists: (path: string) => boolean;
}): InstallTarget[] {
  const agents: AgentTarget[] = options.target === 'all' ? ['claude', 'factory'] : options.target ? [options.target] : detectAgents(options.home, options.exists);
  const base = options.project ? options.cwd : options.home;
  return agents.map((agent) => ({ agent, file: join(base, AGENT_DIRS[agent], 'settings.json') }));
}

export function detectAgents(home: string, exists: (path: string) => boolean): AgentTarget[] {
  const found = (Object.keys(AGENT_DIRS) as AgentTarget[]).filter((agent) => exists(join(home, AGENT_DIRS[agent])));
  return found.length > 0 ? found : ['claude'];
}
