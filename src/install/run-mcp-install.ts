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
import { addRecallMcpServer, removeRecallMcpServer, type McpServerAction, type McpServersEdit } from './merge-mcp-servers.js';
import type { AgentTarget } from './recall-hooks.js';
import { MCP_SERVER_NAME, buildMcpServerEntry } from './recall-mcp-server.js';
import { recallHomeToInstall, type InstallAction } from './run-install.js';
import { readSettingsFile, writeSettingsFile, type SettingsSnapshot } from './settings-file.js';

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
  action: McpServerAction;
  /** The new file content; null when nothing changes. */
  text: string | null;
  /** A line diff of the `mcpServers` section. */
  diff: string[];
  notes: string[];
  snapshot: SettingsSnapshot;
}

export interface McpOutcome extends McpTarget {
  action: McpServerAction;
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
 */
export function mcpConfigFile(agent: AgentTarget, options: { project: boolean; home: string; cwd: string }): string {
  if (agent === 'claude') return options.project ? join(options.cwd, '.mcp.json') : join(options.home, '.claude.json');
  return join(options.project ? options.cwd : options.home, '.factory', 'mcp.json');
}

/** The MCP config files of the agents the hooks go to. */
export function mcpTargetsFor(targets: readonly InstallTarget[], options: { project: boolean; home: string; cwd: string }): McpTarget[] {
  const scope = options.project ? 'project' : 'user';
  return [...new Set(targets.map((t) => t.agent))].map((agent) => ({ agent, file: mcpConfigFile(agent, options), scope }));
}

/** Reads and plans every file; throws (naming the file, nothing written) when one must be refused. */
export function planMcpTargets(targets: readonly McpTarget[], options: McpInstallOptions): McpPlan[] {
  const recallHome = recallHomeToInstall(options.env);
  return targets.map((target) => {
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
