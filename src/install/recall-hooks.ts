/**
 * The hook entries recall puts into an agent's settings file, and how to recognise them again.
 * Pure: no file or process access.
 */

export type HookName = 'session-start' | 'session-end' | 'post-tool-use' | 'stop';
export type HookEvent = 'SessionStart' | 'SessionEnd' | 'PostToolUse' | 'Stop' | 'AfterTool';
export type AgentTarget = 'claude' | 'factory' | 'codex' | 'gemini' | 'copilot' | 'qwen';

/** Every agent recall installs into, in the order `--target all` and doctor take them. */
export const AGENT_TARGETS: readonly AgentTarget[] = ['claude', 'factory', 'codex', 'gemini', 'copilot', 'qwen'];

export interface HookSpec {
  event: HookEvent;
  /** Seconds before the agent cancels the hook. */
  timeout: number;
  /** Matcher of the group recall adds; absent means "every occurrence of the event". */
  matcher?: string;
}

/**
 * SessionEnd: 10 s, so the shared 1.5 s SessionEnd budget of Claude Code is never the limit
 * (a per-hook timeout in a settings file raises it). SessionStart reads a pre-rendered file: 5 s.
 * PostToolUse (Endless Mode) compresses with the local model synchronously: 90 s, above its deadline.
 */
export const RECALL_HOOKS: Readonly<Record<HookName, HookSpec>> = {
  'session-start': { event: 'SessionStart', timeout: 5 },
  'session-end': { event: 'SessionEnd', timeout: 10 },
  'post-tool-use': { event: 'PostToolUse', timeout: 90, matcher: '*' },
  // Codex, Copilot CLI and Qwen Code: notes after every turn that the session is open, for sessions that end without SessionEnd.
  stop: { event: 'Stop', timeout: 5 },
};

export const HOOK_NAMES = Object.keys(RECALL_HOOKS) as HookName[];

/**
 * Where an agent's timeouts differ from RECALL_HOOKS: Codex caps a SessionEnd hook at 3 s (and warns at
 * every start about a longer one); recall's SessionEnd only queues a job, well within that.
 */
const AGENT_TIMEOUTS: Partial<Record<AgentTarget, Partial<Record<HookName, number>>>> = { codex: { 'session-end': 3 } };

/**
 * One hook's spec as an agent gets it. Gemini CLI names the after-tool event AfterTool and reads a hook's
 * timeout in milliseconds.
 */
export function hookSpecFor(agent: AgentTarget, name: HookName): HookSpec {
  const base = RECALL_HOOKS[name];
  const seconds = AGENT_TIMEOUTS[agent]?.[name] ?? base.timeout;
  if (agent === 'gemini') return { ...base, event: name === 'post-tool-use' ? 'AfterTool' : base.event, timeout: seconds * 1000 };
  return { ...base, timeout: seconds };
}

export interface RecallHookEntry extends HookSpec {
  name: HookName;
  command: string;
  /** `ensure` adds the entry when missing; `refresh` only updates one that is already there. */
  mode: 'ensure' | 'refresh';
}

export interface HookCommandParts {
  /** The node binary the agent runs the hook with (absolute path, or a bare name found on PATH). */
  nodePath: string;
  /** Absolute path of this checkout's entry: dist/cli/main.cjs (the bin; dist/cli/main.js in older installs). */
  cliPath: string;
  agent: AgentTarget;
  /**
   * Absolute state dir the hooks are told to use (`RECALL_HOME=...` before the command), so they capture
   * into the one `recall install` ran with even when the agent's environment has no RECALL_HOME.
   * Absent or null: nothing is set and the hook uses its default (~/.recall).
   */
  recallHome?: string | null;
}

/** Quotes a value for a POSIX shell: agents run hook commands through `sh -c`/bash. */
export function quoteForShell(value: string): string {
  return `"${value.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

export function buildHookCommand(parts: HookCommandParts, name: HookName): string {
  const agentFlag = parts.agent === 'claude' ? '' : ` --agent ${parts.agent}`;
  const home = parts.recallHome ? `RECALL_HOME=${quoteForShell(parts.recallHome)} ` : '';
  return `${home}${quoteForShell(parts.nodePath)} ${quoteForShell(parts.cliPath)} hook ${name}${agentFlag}`;
}

/**
 * Whether an agent gives the model what a PostToolUse hook answers instead of the tool's output. Claude Code
 * honours `updatedToolOutput`; Codex (0.171) sends the `reason` of a `{"decision":"block"}` answer in place of
 * the output, and Gemini CLI (0.61) the `reason` of an AfterTool `{"decision":"block"}` answer (deny's alias; as the tool's
 * `error`); GitHub Copilot CLI (1.0.102) sends a PostToolUse hook's `modifiedResult` (`{textResultForLlm, resultType}`)
 * in place of the output; Qwen Code (0.24.4) sends the `stopReason` of a PostToolUse `{"continue":false}` answer in
 * place of the output (as the tool's error) and goes on with the turn; droid (0.225) reads only `additionalContext`, `systemMessage`, `continue` and the exit code of
 * a PostToolUse hook and always sends the original output, so Endless Mode cannot work there.
 */
export function replacesToolOutput(agent: AgentTarget): boolean {
  return agent === 'claude' || agent === 'codex' || agent === 'gemini' || agent === 'copilot' || agent === 'qwen';
}

/** What install and doctor say about Endless Mode for an agent that ignores the hook's answer. */
export const NO_LIVE_ENDLESS_NOTE =
  "Endless Mode cannot compress droid's tool outputs: droid sends a tool's original output to the model whatever a PostToolUse hook answers (it reads only additionalContext), so recall adds no PostToolUse hook for it";

/** Qwen Code (0.24.4) runs SessionEnd only when an interactive session ends, so a headless session is captured later. */
export const QWEN_CAPTURE_NOTE =
  'Qwen Code runs SessionEnd hooks only when an interactive session ends: a `qwen -p` session is captured at a later SessionStart, once it has been idle 15 minutes (its Stop hook notes it as open)';

/** Codex skips a new or changed hook, without a word, until the user has trusted it. */
export const CODEX_TRUST_NOTE =
  'Codex runs a new or changed hook only once you trust it: open /hooks in codex and trust recall\'s hooks (a one-off `codex exec` can pass --dangerously-bypass-hook-trust instead)';

/**
 * SessionEnd and SessionStart always; the Endless Mode PostToolUse hook only when asked for and the agent
 * honours its answer; Stop for Codex, Copilot CLI and Qwen Code, whose sessions can end without SessionEnd (Qwen Code runs
 * SessionEnd only when an interactive session ends, never after `qwen -p`); else only kept up to date.
 */
export function recallHookEntries(parts: HookCommandParts, options: { endless: boolean }): RecallHookEntry[] {
  const ensure = (name: HookName): boolean => {
    if (name === 'post-tool-use') return options.endless && replacesToolOutput(parts.agent);
    if (name === 'stop') return parts.agent === 'codex' || parts.agent === 'copilot' || parts.agent === 'qwen';
    return true;
  };
  return HOOK_NAMES.map((name) => ({
    name,
    ...hookSpecFor(parts.agent, name),
    command: buildHookCommand(parts, name),
    mode: ensure(name) ? 'ensure' : 'refresh',
  }));
}

/**
 * `.../dist/cli/main.cjs" hook session-end` (or main.js, as older installs wrote), `recall hook session-end`, `/usr/local/bin/recall hook ...`:
 * the forms recall's own hooks take (installed by this command, by an older checkout, by the plugin or by hand).
 */
const RECALL_COMMAND = /(?:dist[\\/]cli[\\/]main\.c?js|(?:^|[\s"'/\\])recall)["']?\s+hook\s+(session-start|session-end|post-tool-use|stop)(?=$|[\s"';&|])/;

/**
 * The `RECALL_HOME=<value> ` install puts before its command when RECALL_HOME was set (double-quoted by
 * quoteForShell; single-quoted or bare when written by hand). Taken off before matching, so a state dir
 * whose path reads like a recall command cannot decide which hook this is.
 */
const HOME_PREFIX = /^\s*RECALL_HOME=(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+)\s+/;

/**
 * The state dir a recall hook command is told to use (its `RECALL_HOME=` prefix, unquoted as a POSIX
 * shell would), or null when it has none and so uses the agent's environment.
 */
export function recallHookHome(command: unknown): string | null {
  if (typeof command !== 'string' || recallHookName(command) === null) return null;
  const value = HOME_PREFIX.exec(command)?.[0].trim().slice('RECALL_HOME='.length);
  if (value === undefined) return null;
  if (value.startsWith('"')) return value.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  if (value.startsWith("'")) return value.slice(1, -1);
  return value;
}

/** Which recall hook a command runs, or null when it is not one of recall's. */
export function recallHookName(command: unknown): HookName | null {
  if (typeof command !== 'string') return null;
  const match = RECALL_COMMAND.exec(command.replace(HOME_PREFIX, ''));
  return match ? (match[1] as HookName) : null;
}
