/**
 * Registers recall's MCP server with each agent (and removes it again), in the agent's MCP config file:
 * read and plan every file first, so a file recall must refuse stops the run before anything is written;
 * then write with a backup, atomically, keeping the file's formatting and mode (settings-file.ts).
 */
import { join } from 'node:path';
import { RecallError } from '../core/errors.js';
import { renderDiff } from './diff-lines.js';
import type { InstallTarget } from './install-targets.js';
import { formatJson } from './json-format.js';
import { addCodexMcpServer, removeCodexMcpServer, type TomlMcpEdit } from './codex-mcp-config.js';
import { agentDir, type AgentHomes } from './install-targets.js';
import { addRecallMcpServer, removeRecallMcpServer, type McpServerAction, type McpServersEdit } from './merge-mcp-servers.js';
import type { AgentTarget } from './recall-hooks.js';
import { MCP_SERVER_NAME, buildMcpServerEntry } from './recall-mcp-server.js';
import { recallHomeToInstall, type InstallAction } from './run-install.js';
import { readRawSettingsFile, readSettingsFile, writeSettingsFile, type SettingsSnapshot } from './settings-file.js';

export interface McpTarget {
  agent: AgentTarget;
  file: string;
  scope: 'user' | 'project';
}

export interface McpInstallOptions {
  action: InstallAction;
  nodePath: string;
  cliPath: string;
  /** The environment `recall install` runs in; a RECALL_HOME set there goes into the entry's `env`. */
  env: NodeJS.ProcessEnv;
}

export interface McpPlan extends McpTarget {
  action: McpServerAction | TomlMcpEdit['action'];
  /** The new file content; null when nothing changes. */
  text: string | null;
  /** A line diff of the `mcpServers` section. */
  diff: string[];
  notes: string[];
  snapshot: Pick<SettingsSnapshot, 'file' | 'target' | 'exists' | 'mode'>;
}

export interface McpOutcome extends McpTarget {
  action: McpServerAction | TomlMcpEdit['action'];
  diff: string[];
  notes: string[];
  dryRun: boolean;
  written: boolean;
  created: boolean;
  backup: string | null;
}

/**
 * Claude Code: user scope in `~/.claude.json` (top-level `mcpServers`), project scope in `<cwd>/.mcp.json`.
 * Factory droid: `~/.factory/mcp.json`, or `<cwd>/.factory/mcp.json` for the project.
 * Codex: `[mcp_servers.recall]` in `$CODEX_HOME/config.toml` (default `~/.codex`), or `<cwd>/.codex/config.toml`.
 * Gemini CLI: `mcpServers` in `~/.gemini/settings.json` (or the project's), the file its hooks are in.
 * GitHub Copilot CLI: `$COPILOT_HOME/mcp-config.json` (default `~/.copilot`), or the project's `<cwd>/.mcp.json`.
 * Qwen Code: `mcpServers` in `~/.qwen/settings.json` (or the project's), the file its hooks are in, as Gemini CLI.
 */
export function mcpConfigFile(agent: AgentTarget, options: AgentHomes & { project: boolean; cwd: string }): string {
  if (agent === 'claude') return options.project ? join(options.cwd, '.mcp.json') : join(options.home, '.claude.json');
  if (agent === 'codex') return join(options.project ? join(options.cwd, '.codex') : agentDir('codex', options), 'config.toml');
  // Gemini CLI keeps MCP servers in the settings.json its hooks are in.
  if (agent === 'gemini') return join(options.project ? join(options.cwd, '.gemini') : agentDir('gemini', options), 'settings.json');
  if (agent === 'qwen') return join(options.project ? join(options.cwd, '.qwen') : agentDir('qwen', options), 'settings.json');
  if (agent === 'copilot') return options.project ? join(options.cwd, '.mcp.json') : join(agentDir('copilot', options), 'mcp-config.json');
  return join(options.project ? options.cwd : options.home, '.factory', 'mcp.json');
}

/** The MCP config files of the agents the hooks go to. */
export function mcpTargetsFor(targets: readonly InstallTarget[], options: AgentHomes & { project: boolean; cwd: string }): McpTarget[] {
  const scope = options.project ? 'project' : 'user';
  return [...new Set(targets.map((t) => t.agent))].map((agent) => ({ agent, file: mcpConfigFile(agent, options), scope }));
}

/** Reads and plans every file; throws (naming the file, nothing written) when one must be refused. */
export function planMcpTargets(targets: readonly McpTarget[], options: McpInstallOptions): McpPlan[] {
  const recallHome = recallHomeToInstall(options.env);
  return targets.map((target) => {
    if (target.agent === 'codex') return planCodexTarget(target, options, recallHome);
    const snapshot = readSettingsFile(target.file);
    let edit: McpServersEdit;
    try {
      edit =
        options.action === 'install'
          ? addRecallMcpServer(snapshot.settings, buildMcpServerEntry({ nodePath: options.nodePath, cliPath: options.cliPath, agent: target.agent, recallHome }))
          : removeRecallMcpServer(snapshot.settings);
    } catch (err) {
      if (err instanceof RecallError) throw new RecallError(err.code, `${target.file}: ${err.message}; recall changed nothing`, { cause: err });
      throw err;
    }
    return {
      ...target,
      action: edit.action,
      text: edit.changed ? formatJson(edit.config, snapshot.format) : null,
      diff: renderDiff(serversJson(snapshot.settings), serversJson(edit.config)),
      notes: notesFor(target, edit, options.action),
      snapshot,
    };
  });
}

/** Codex keeps MCP servers in TOML: the edit is a text edit of recall's table (codex-mcp-config.ts). */
function planCodexTarget(target: McpTarget, options: McpInstallOptions, recallHome: string | null): McpPlan {
  const raw = readRawSettingsFile(target.file);
  const entry = buildMcpServerEntry({ nodePath: options.nodePath, cliPath: options.cliPath, agent: target.agent, recallHome });
  let edit: TomlMcpEdit;
  try {
    edit = options.action === 'install' ? addCodexMcpServer(raw.text, target.file, entry) : removeCodexMcpServer(raw.text, target.file);
  } catch (err) {
    if (err instanceof RecallError) throw new RecallError(err.code, `${err.message.startsWith(target.file) ? '' : `${target.file}: `}${err.message}`, { cause: err });
    throw err;
  }
  const notes: string[] = [];
  if (edit.action === 'foreign') notes.push(`another MCP server named "${MCP_SERVER_NAME}" is in ${target.file}; recall left it as it is`);
  if (edit.action === 'unreachable') notes.push(`[mcp_servers.${MCP_SERVER_NAME}] in ${target.file} is written as dotted keys or an inline table; recall left it as it is: edit it by hand`);
  if (edit.changed && options.action === 'install') notes.push('running Codex sessions load MCP servers when they start: restart them');
  return {
    ...target,
    action: edit.action,
    text: edit.changed ? edit.text : null,
    diff: renderDiff(JSON.stringify(edit.before, null, 2), JSON.stringify(edit.after, null, 2)),
    notes,
    snapshot: raw,
  };
}

export function writeMcpPlans(plans: readonly McpPlan[], options: { dryRun: boolean; now: Date }): McpOutcome[] {
  return plans.map(({ text, snapshot, ...rest }) => {
    const write = text !== null && !options.dryRun;
    const { backup } = write ? writeSettingsFile(snapshot, text, options.now) : { backup: null };
    return { ...rest, dryRun: options.dryRun, written: write, created: write && !snapshot.exists, backup };
  });
}

function serversJson(config: Record<string, unknown>): string {
  return JSON.stringify(config.mcpServers ?? {}, null, 2);
}

function notesFor(target: McpTarget, edit: McpServersEdit, action: InstallAction): string[] {
  const notes: string[] = [];
  if (edit.action === 'foreign') {
    notes.push(`another MCP server named "${MCP_SERVER_NAME}" is in ${target.file}; recall left it as it is`);
    return notes;
  }
  if (action !== 'install') return notes;
  if (edit.entry?.disabled === true) notes.push(`the server is disabled in ${target.file}; enable it with /mcp in droid`);
  if (edit.changed && target.agent === 'claude') {
    notes.push(
      target.scope === 'project'
        ? 'Claude Code asks once to approve servers from a project .mcp.json; it holds absolute paths of this machine'
        : 'running Claude Code sessions load MCP servers when they start: restart them',
    );
  }
  return notes;
}
