import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { resolveInstallTargets, type TargetChoice } from '../../install/install-targets.js';
import { renderInstallReport } from '../../install/render-install-report.js';
import { runInstall, type InstallAction } from '../../install/run-install.js';
import { renderMcpReport } from '../../install/render-mcp-report.js';
import { mcpTargetsFor, planMcpTargets, writeMcpPlans } from '../../install/run-mcp-install.js';
import { out } from '../output.js';
import { resolveHome, statePaths } from '../../core/state-paths.js';
import { describeEndlessSwitch, switchEndlessMode } from '../../install/endless-switch.js';
import { AGENT_TARGETS, replacesToolOutput } from '../../install/recall-hooks.js';
import { commandEnv } from '../terminal.js';

/**
 * This checkout's `recall` bin (dist/cli/main.cjs): the hooks and the MCP server run it. Built as CommonJS,
 * it starts a hook without node's ESM loader (scripts/bundle-hooks.mjs), a few ms of every hook start;
 * dist/cli/main.js, which older installs name, runs the same program.
 */
const CLI_PATH = fileURLToPath(new URL('../main.cjs', import.meta.url));

export interface InstallFlags {
  target?: TargetChoice;
  project?: boolean;
  endless?: boolean;
  dryRun?: boolean;
  json?: boolean;
  node?: string;
  /** False with --no-mcp. */
  mcp?: boolean;
}

export function registerInstall(program: Command): void {
  const command = program
    .command('install')
    .description("add recall's SessionEnd and SessionStart hooks to the agent's settings file and register its MCP server (keeps everything else, backs files up)");
  addSharedOptions(command, 'install')
    .option('--node <path>', `node binary the hooks run with (default: the one running now, ${process.execPath})`)
    .action((flags: InstallFlags) => runInstallCommand('install', flags));
}

/** The flags `install` and `uninstall` share. */
export function addSharedOptions(command: Command, action: InstallAction): Command {
  return command
    .addOption(
      new Option('--target <agent>', 'claude, factory, codex, gemini, copilot, qwen or all (default: each agent whose ~/.claude, ~/.factory, Codex home, ~/.gemini, Copilot CLI home or ~/.qwen folder exists; claude if none does)').choices([
        ...AGENT_TARGETS,
        'all',
      ]),
    )
    .option('--project', 'edit the project file (<cwd>/.claude/settings.json, <cwd>/.factory/settings.json, <cwd>/.codex/hooks.json, <cwd>/.gemini/settings.json, <cwd>/.github/hooks/recall.json, <cwd>/.qwen/settings.json) instead of the one in your home folder')
    .option(
      '--endless',
      action === 'install'
        ? 'also add the Endless Mode PostToolUse hook (timeout 90 s) and switch endless.enabled on in config.json (Claude Code, Codex, Gemini CLI, Copilot CLI and Qwen Code; droid ignores what the hook answers)'
        : 'remove only the Endless Mode PostToolUse hook and switch endless.enabled off',
    )
    .option('--no-mcp', action === 'install' ? 'do not register the MCP server (~/.claude.json, ~/.factory/mcp.json, ~/.codex/config.toml, ~/.gemini/settings.json, ~/.copilot/mcp-config.json, ~/.qwen/settings.json; .mcp.json with --project)' : 'keep the MCP server registration')
    .option('--dry-run', 'show the change to the hooks section and write nothing')
    .option('--json', 'print the result as JSON');
}

export function runInstallCommand(action: InstallAction, flags: InstallFlags): void {
  const nodePath = flags.node ?? process.execPath;
  if (nodePath.trim() === '' || (!isAbsolute(nodePath) && /[\\/]/.test(nodePath))) {
    throw new RecallError('INPUT_INVALID', `--node must be an absolute path or a command name found on PATH, got "${nodePath}"`);
  }
  const homes = { home: homedir(), codexHome: commandEnv().CODEX_HOME?.trim() || undefined, copilotHome: commandEnv().COPILOT_HOME?.trim() || undefined };
  const targets = resolveInstallTargets({ ...homes, target: flags.target, project: flags.project === true, cwd: process.cwd(), exists: existsSync });
  // Endless-only uninstall leaves everything but that hook; the MCP files are planned (and refused) before any write.
  const withMcp = flags.mcp !== false && !(action === 'uninstall' && flags.endless === true);
  const mcpTargets = withMcp ? mcpTargetsFor(targets, { ...homes, project: flags.project === true, cwd: process.cwd() }) : [];
  // Gemini CLI's and Qwen Code's MCP servers live in the settings file their hooks do: planned (and written) after the hooks, from what they wrote.
  const sharesHookFile = (agent: string): boolean => agent === 'gemini' || agent === 'qwen';
  const mcpOptions = { action, nodePath, cliPath: CLI_PATH, env: commandEnv() };
  const mcpPlans = planMcpTargets(mcpTargets.filter((t) => !sharesHookFile(t.agent)), mcpOptions);
  const outcomes = runInstall(targets, {
    action,
    endless: flags.endless === true,
    nodePath,
    cliPath: CLI_PATH,
    env: commandEnv(),
    dryRun: flags.dryRun === true,
    now: new Date(),
  });
  const mcp = writeMcpPlans([...mcpPlans, ...planMcpTargets(mcpTargets.filter((t) => sharesHookFile(t.agent)), mcpOptions)], { dryRun: flags.dryRun === true, now: new Date() });
  // Installing for droid alone leaves the switch alone: droid ignores what the hook answers (the report says so).
  const switchEndless = flags.endless === true && (action === 'uninstall' || targets.some((t) => replacesToolOutput(t.agent)));
  const endless = switchEndless ? switchEndlessMode(statePaths(resolveHome(commandEnv())).configFile, action === 'install', { dryRun: flags.dryRun === true }) : null;
  if (flags.json) {
    out.json({ action, dryRun: flags.dryRun === true, targets: outcomes, mcp, endless });
    return;
  }
  for (const line of renderInstallReport(outcomes, renderMcpReport(mcp))) out.line(line);
  if (endless) out.line(describeEndlessSwitch(endless, flags.dryRun === true));
}
