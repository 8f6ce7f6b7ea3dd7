/**
 * `recall install` / `recall uninstall` for a list of settings files: read and plan every file
 * first, so a file recall must refuse stops the run before anything is written; then write.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RecallError } from '../core/errors.js';
import { resolveHome } from '../core/state-paths.js';
import { renderDiff } from './diff-lines.js';
import type { InstallTarget } from './install-targets.js';
import { formatJson } from './json-format.js';
import { isObject } from '../core/is-object.js';
import { mergeRecallHooks, removeRecallHooks, type HookChange, type HooksEdit } from './merge-hooks.js';
import { CODEX_TRUST_NOTE, HOOK_NAMES, QWEN_CAPTURE_NOTE, NO_LIVE_ENDLESS_NOTE, recallHookEntries, replacesToolOutput, type AgentTarget } from './recall-hooks.js';
import { readSettingsFile, writeSettingsFile, type SettingsSnapshot } from './settings-file.js';

export type InstallAction = 'install' | 'uninstall';
export type TargetStatus = 'installed' | 'updated' | 'already-installed' | 'removed' | 'not-installed';

export interface InstallOptions {
  action: InstallAction;
  /** install: add the Endless Mode PostToolUse hook; uninstall: remove only that hook. */
  endless: boolean;
  nodePath: string;
  cliPath: string;
  /** The environment `recall install` runs in; a RECALL_HOME set there goes into the hook commands. */
  env: NodeJS.ProcessEnv;
}

/** What planTarget needs: the options with RECALL_HOME already resolved. */
export type PlanOptions = Omit<InstallOptions, 'env'> & { recallHome: string | null };

export interface TargetPlan {
  agent: AgentTarget;
  file: string;
  status: TargetStatus;
  hooks: HookChange[];
  /** The new file content; null when nothing changes. */
  text: string | null;
  /** A line diff of the `hooks` section. */
  diff: string[];
  notes: string[];
  /** The state dir the installed hook commands set as RECALL_HOME; null when they set none (and on uninstall). */
  recallHome: string | null;
}

export interface TargetOutcome extends Omit<TargetPlan, 'text'> {
  dryRun: boolean;
  written: boolean;
  created: boolean;
  backup: string | null;
}

/**
 * The state dir recall install writes into the hooks and the MCP server entry: RECALL_HOME made absolute
 * (as the hooks would resolve it) when it is set and not blank; null otherwise, so nothing is written.
 */
export function recallHomeToInstall(env: NodeJS.ProcessEnv): string | null {
  return env.RECALL_HOME?.trim() ? resolveHome(env) : null;
}

/** What to change in one settings file. Pure apart from the snapshot already read. */
export function planTarget(target: InstallTarget, snapshot: SettingsSnapshot, options: PlanOptions): TargetPlan {
  const parts = { nodePath: options.nodePath, cliPath: options.cliPath, agent: target.agent, recallHome: options.recallHome };
  let edit: HooksEdit;
  try {
    edit =
      options.action === 'install'
        ? mergeRecallHooks(snapshot.settings, recallHookEntries(parts, { endless: options.endless }))
        : removeRecallHooks(snapshot.settings, options.endless ? ['post-tool-use'] : HOOK_NAMES);
  } catch (err) {
    if (err instanceof RecallError) throw new RecallError(err.code, `${target.file}: ${err.message}; recall changed nothing`, { cause: err });
    throw err;
  }
  return {
    ...target,
    status: statusOf(options.action, edit),
    hooks: edit.changes,
    text: edit.changed ? formatJson(edit.settings, snapshot.format) : null,
    diff: renderDiff(hooksJson(snapshot.settings), hooksJson(edit.settings)),
    notes: [],
    recallHome: options.action === 'install' ? options.recallHome : null,
  };
}

export function runInstall(
  targets: readonly InstallTarget[],
  options: InstallOptions & { dryRun: boolean; now: Date; exists?: (path: string) => boolean },
): TargetOutcome[] {
  const exists = options.exists ?? existsSync;
  const { env, ...rest } = options;
  const planOptions = { ...rest, recallHome: recallHomeToInstall(env) };
  const planned = targets.map((target) => {
    const snapshot = readSettingsFile(target.file);
    const plan = planTarget(target, snapshot, planOptions);
    plan.notes.push(...notesFor(target, snapshot, options, exists));
    return { plan, snapshot };
  });
  return planned.map(({ plan, snapshot }) => {
    const { text, ...rest } = plan;
    const write = text !== null && !options.dryRun;
    const { backup } = write ? writeSettingsFile(snapshot, text, options.now) : { backup: null };
    return { ...rest, dryRun: options.dryRun, written: write, created: write && !snapshot.exists, backup };
  });
}

function statusOf(action: InstallAction, edit: HooksEdit): TargetStatus {
  if (action === 'uninstall') return edit.changed ? 'removed' : 'not-installed';
  if (!edit.changed) return 'already-installed';
  return edit.changes.some((c) => c.action === 'added') ? 'installed' : 'updated';
}

function hooksJson(settings: Record<string, unknown>): string {
  return JSON.stringify(settings.hooks ?? {}, null, 2);
}

function notesFor(target: InstallTarget, snapshot: SettingsSnapshot, options: { action: InstallAction; endless: boolean }, exists: (path: string) => boolean): string[] {
  const { action } = options;
  const notes: string[] = [];
  if (action === 'install' && options.endless && !replacesToolOutput(target.agent)) notes.push(NO_LIVE_ENDLESS_NOTE);
  if (target.agent === 'codex' && action === 'install') notes.push(CODEX_TRUST_NOTE);
  if (target.agent === 'qwen' && action === 'install') notes.push(QWEN_CAPTURE_NOTE);
  const hooksFile = join(dirname(target.file), 'hooks.json');
  if (target.agent === 'factory' && action === 'install' && exists(hooksFile)) {
    notes.push(`${hooksFile} exists: newer droid versions read hooks from it and then ignore the "hooks" in settings.json; if droid does not run recall's hooks, move them there`);
  }
  const plugins = snapshot.settings.enabledPlugins;
  if (target.agent === 'claude' && isObject(plugins) && Object.entries(plugins).some(([id, on]) => id.startsWith('recall@') && on === true)) {
    notes.push(`the recall plugin is enabled in ${target.file} as well; with both, each hook runs twice: keep one`);
  }
  return notes;
}
