/**
 * Which settings files `recall install` / `uninstall` edit. Pure: the caller hands in `exists`.
 *
 * Without --target, recall picks the agents the user has (a ~/.claude, ~/.factory or Codex home folder
 * exists), and Claude Code when none does: installing for an agent that is not there would only leave
 * a stray folder, and Claude Code is the primary agent.
 *
 * Claude Code, droid, Gemini CLI and Qwen Code (`~/.qwen`) read hooks from `settings.json`; Codex from `hooks.json` beside its
 * config, in `$CODEX_HOME` (default `~/.codex`) or a project's `.codex` folder; GitHub Copilot CLI from every
 * JSON file in `hooks/` of `$COPILOT_HOME` (default `~/.copilot`), or of a project's `.github` folder: recall
 * keeps its hooks in its own `recall.json` there.
 */
import { join } from 'node:path';
import { AGENT_TARGETS, type AgentTarget } from './recall-hooks.js';

export type TargetChoice = AgentTarget | 'all';

export interface InstallTarget {
  agent: AgentTarget;
  file: string;
}

const AGENT_DIRS: Record<AgentTarget, string> = { claude: '.claude', factory: '.factory', codex: '.codex', gemini: '.gemini', copilot: '.copilot', qwen: '.qwen' };
const HOOK_FILES: Record<AgentTarget, string> = {
  claude: 'settings.json',
  factory: 'settings.json',
  codex: 'hooks.json',
  gemini: 'settings.json',
  copilot: join('hooks', 'recall.json'),
  qwen: 'settings.json',
};
/** Where a project's file lives when it is not in the agent's own folder name under the project. */
const PROJECT_DIRS: Partial<Record<AgentTarget, string>> = { copilot: '.github' };

export interface AgentHomes {
  home: string;
  /** Codex's home folder when CODEX_HOME is set; `<home>/.codex` otherwise. */
  codexHome?: string | undefined;
  /** GitHub Copilot CLI's home folder when COPILOT_HOME is set; `<home>/.copilot` otherwise. */
  copilotHome?: string | undefined;
}

/** The folder an agent keeps its user settings in. */
export function agentDir(agent: AgentTarget, homes: AgentHomes): string {
  if (agent === 'codex' && homes.codexHome) return homes.codexHome;
  if (agent === 'copilot' && homes.copilotHome) return homes.copilotHome;
  return join(homes.home, AGENT_DIRS[agent]);
}

/** The settings file an agent reads hooks from: the user's, or the project's under `cwd`. */
export function hookFileFor(agent: AgentTarget, options: AgentHomes & { project: boolean; cwd: string }): string {
  const dir = options.project ? join(options.cwd, PROJECT_DIRS[agent] ?? AGENT_DIRS[agent]) : agentDir(agent, options);
  return join(dir, HOOK_FILES[agent]);
}

export function resolveInstallTargets(
  options: AgentHomes & {
    target: TargetChoice | undefined;
    project: boolean;
    cwd: string;
    exists: (path: string) => boolean;
  },
): InstallTarget[] {
  const agents: AgentTarget[] = options.target === 'all' ? [...AGENT_TARGETS] : options.target ? [options.target] : detectAgents(options, options.exists);
  return agents.map((agent) => ({ agent, file: hookFileFor(agent, options) }));
}

export function detectAgents(homes: AgentHomes, exists: (path: string) => boolean): AgentTarget[] {
  const found = AGENT_TARGETS.filter((agent) => exists(agentDir(agent, homes)));
  return found.length > 0 ? found : ['claude'];
}
