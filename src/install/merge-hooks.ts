/**
 * Adds recall's hooks to parsed agent settings, and takes them out again. Pure: works on values,
 * never mutates its input, keeps every key, matcher group and hook that is not recall's as it was.
 *
 * Settings shape (Claude Code and Factory droid alike):
 *   { "hooks": { "<Event>": [ { "matcher"?: "...", "hooks": [ { "type": "command", "command": "...", "timeout"?: N } ] } ] } }
 */
import { RecallError } from '../core/errors.js';
import { HOOK_NAMES, recallHookName, type HookName, type RecallHookEntry } from './recall-hooks.js';
import { isObject } from '../core/is-object.js';

export type JsonObject = Record<string, unknown>;

export interface HookChange {
  event: string;
  name: HookName;
  action: 'added' | 'updated' | 'unchanged' | 'removed';
}

export interface HooksEdit {
  settings: JsonObject;
  changes: HookChange[];
  /** False when the result is deep-equal to the input. */
  changed: boolean;
}

/** One of recall's hooks, found in a matcher group. */
interface Found {
  hook: JsonObject;
}

export function mergeRecallHooks(settings: JsonObject, entries: readonly RecallHookEntry[]): HooksEdit {
  const hooksValue = checkHooks(settings);
  for (const entry of entries) {
    const groups = hooksValue?.[entry.event];
    if (groups !== undefined && !Array.isArray(groups)) {
      throw new RecallError('CONFIG_INVALID', `"hooks.${entry.event}" must be an array of matcher groups, found ${describe(groups)}`);
    }
  }
  const next = structuredClone(settings);
  const changes: HookChange[] = [];
  for (const entry of entries) {
    const found = findRecallHooks(next, entry.event, entry.name);
    const [first, ...extra] = found;
    if (!first) {
      if (entry.mode === 'refresh') continue;
      const hooks = isObject(next.hooks) ? next.hooks : (next.hooks = {});
      const groups = Array.isArray(hooks[entry.event]) ? (hooks[entry.event] as unknown[]) : (hooks[entry.event] = []);
      groups.push(newGroup(entry));
      changes.push({ event: entry.event, name: entry.name, action: 'added' });
      continue;
    }
    const before = JSON.stringify(first.hook);
    first.hook.type = 'command';
    first.hook.command = entry.command;
    first.hook.timeout = entry.timeout;
    // More than one copy of the same recall hook would run it twice: keep the first.
    removeHooks(next, new Set(extra.map((f) => f.hook)));
    const same = before === JSON.stringify(first.hook) && extra.length === 0;
    changes.push({ event: entry.event, name: entry.name, action: same ? 'unchanged' : 'updated' });
  }
  return { settings: next, changes, changed: JSON.stringify(next) !== JSON.stringify(settings) };
}

/** Removes recall's hooks (all of them, or only `names`), then any group, event or `hooks` key that only they filled. */
export function removeRecallHooks(settings: JsonObject, names: readonly HookName[] = HOOK_NAMES): HooksEdit {
  const hooksValue = checkHooks(settings);
  if (!hooksValue) return { settings: structuredClone(settings), changes: [], changed: false };
  const next = structuredClone(settings);
  const changes: HookChange[] = [];
  const doomed = new Set<JsonObject>();
  for (const event of Object.keys(hooksValue)) {
    for (const name of names) {
      for (const found of findRecallHooks(next, event, name)) {
        doomed.add(found.hook);
        changes.push({ event, name, action: 'removed' });
      }
    }
  }
  removeHooks(next, doomed);
  return { settings: next, changes, changed: doomed.size > 0 };
}

/** Throws when `hooks` is present but not an object; returns it otherwise. */
function checkHooks(settings: JsonObject): JsonObject | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new RecallError('CONFIG_INVALID', `"hooks" must be an object, found ${describe(hooks)}`);
  return hooks;
}

function findRecallHooks(settings: JsonObject, event: string, name: HookName): Found[] {
  const groups = isObject(settings.hooks) ? settings.hooks[event] : undefined;
  if (!Array.isArray(groups)) return [];
  const found: Found[] = [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    for (const hook of group.hooks) {
      if (isObject(hook) && recallHookName(hook.command) === name) found.push({ hook });
    }
  }
  return found;
}

/**
 * Takes the given hook objects out of their groups. A group is dropped only when this emptied it,
 * an event only when this emptied it of groups, and `hooks` only when this emptied it of events.
 */
function removeHooks(settings: JsonObject, doomed: ReadonlySet<JsonObject>): void {
  if (doomed.size === 0 || !isObject(settings.hooks)) return;
  const hooks = settings.hooks;
  let emptiedEvent = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    let emptiedGroup = false;
    const kept = groups.filter((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return true;
      const remaining = group.hooks.filter((hook) => !(isObject(hook) && doomed.has(hook)));
      if (remaining.length === group.hooks.length) return true;
      group.hooks = remaining;
      if (remaining.length > 0) return true;
      emptiedGroup = true;
      return false;
    });
    if (!emptiedGroup) continue;
    if (kept.length === 0) {
      delete hooks[event];
      emptiedEvent = true;
    } else {
      hooks[event] = kept;
    }
  }
  if (emptiedEvent && Object.keys(hooks).length === 0) delete settings.hooks;
}

function newGroup(entry: RecallHookEntry): JsonObject {
  const hook = { type: 'command', command: entry.command, timeout: entry.timeout };
  return entry.matcher === undefined ? { hooks: [hook] } : { matcher: entry.matcher, hooks: [hook] };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
