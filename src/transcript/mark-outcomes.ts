/**
 * What became of each tool call, read from the session itself: a tool error, a non-zero exit or failing tests
 * (failed), a test or build run that went through (passed), a commit, a change the agent later reverted or a
 * command it had to run again, and a call the user rejected. Pure.
 */
import type { Outcome } from './session-events.js';

/** Tools that run a shell command, by name (Claude Code, Factory droid and others). */
const COMMAND_TOOLS = /^(?:bash|execute|shell|terminal|run_terminal_cmd|run_command|exec|local_shell|powershell)$/i;
/** Tools that change a file: what a revert can undo. */
const EDIT_TOOLS = /edit|write|create|patch|replace|insert|notebook/i;
/** A test, check or build run, matched against the start of each command in a pipeline or `&&` chain. */
const TEST_OR_BUILD = /^(?:\S*\/)?(?:(?:npm|pnpm|yarn|bun|npx|pnpx)(?: run)? (?:test|tests|check|lint|build|typecheck|verify|ci)\b|(?:(?:npx|pnpx|bunx|pnpm exec|yarn|bundle exec|poetry run|uv run) )?(?:pytest|jest|vitest|mocha|rspec|phpunit|ctest|tox|nox|tsc|make|ninja|gradle|gradlew|mvn|rake|eslint|ruff|mypy|dotnet (?:test|build))\b|(?:cargo|go|mix|swift|deno|python -m|python3 -m) (?:test|build|check|clippy|vet|credo|compile|pytest|rspec)\b)/;
/** What a failed test or build prints. `FAIL` in capitals only: "0 failures" is a pass. */
const TESTS_FAILED = [
  /\b[1-9]\d* (?:failed|failing|failures?|errors?)\b/i,
  /\bFAIL(?:ED)?\b/,
  /\bTests? failed\b/i,
  /\bAssertionError\b|\bnpm ERR!|\berror TS\d+|\berror\[E\d+\]|^error: |Traceback \(most recent call last\)|\bpanicked at\b|\bcommand not found\b/m,
];
const EXIT_CODE = /^Exit code ([1-9]\d*)/;
const REJECTED = /\bThe user doesn't want to proceed with this tool use\b|\btool use was rejected\b/i;
const COMMIT = /^git\s+(?:-\S+\s+)*commit\b/;
const REVERT = /^git\s+(?:checkout\s+(?:\S+\s+)?--\s|restore\b|revert\b|reset\s+--hard\b|stash\b(?!\s+(?:list|show)))/;

/** Each command of a shell line (split at `&&`, `||`, `;` and pipes), without leading variable assignments. */
export function commandHeads(command: string): string[] {
  return command
    .split(/&&|\|\||;|\|/)
    .map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '').replace(/^(?:sudo|time|env)\s+/, ''))
    .filter((part) => part !== '');
}

const anyHead = (heads: readonly string[], pattern: RegExp): boolean => heads.some((head) => pattern.test(head));

export interface ToolRun {
  name: string;
  command?: string;
  /** The file a call touched (Edit, Write, ...). */
  target?: string;
  output?: string;
  isError: boolean;
}

export interface RunOutcome {
  outcome?: Outcome;
  detail?: string;
}

export function isCommandTool(run: Pick<ToolRun, 'name' | 'command'>): boolean {
  return run.command !== undefined || COMMAND_TOOLS.test(run.name);
}

/** The outcome of one call on its own, before later calls are looked at. */
export function classifyRun(run: ToolRun): RunOutcome {
  const output = run.output ?? '';
  if (REJECTED.test(output)) return { outcome: 'rejected', detail: 'rejected by the user' };
  const exit = EXIT_CODE.exec(output.trimStart())?.[1];
  if (exit !== undefined) return { outcome: 'failed', detail: `exit code ${exit}` };
  if (run.isError) return { outcome: 'failed', detail: 'tool error' };
  if (!isCommandTool(run)) return {};
  const heads = commandHeads(run.command ?? '');
  const testing = anyHead(heads, TEST_OR_BUILD);
  if (testing && TESTS_FAILED.some((pattern) => pattern.test(output))) return { outcome: 'failed', detail: 'tests or build failed' };
  if (anyHead(heads, COMMIT)) return { outcome: 'committed' };
  if (anyHead(heads, REVERT)) return { outcome: 'reverted', detail: 'reverted changes' };
  if (testing) return { outcome: 'passed', detail: heads.some((head) => /\btest/.test(head)) ? 'tests passed' : 'succeeded' };
  return {};
}

/** The same command, whitespace folded: what counts as running it again. */
function commandKey(command: string): string {
  return command.replace(/\s+/g, ' ').trim();
}

/**
 * Outcomes for a session's calls in order, with what later calls show: a failed command run again is
 * `retried later`; an edit whose file a later revert names (or any edit since the last commit, when the
 * revert names no file) is `later reverted`.
 */
export function markOutcomes(runs: readonly ToolRun[]): RunOutcome[] {
  const outcomes = runs.map(classifyRun);
  const lastFailure = new Map<string, number>();
  let sinceCommit: number[] = [];
  runs.forEach((run, i) => {
    const own = outcomes[i] as RunOutcome;
    if (run.command !== undefined) {
      const key = commandKey(run.command);
      const earlier = lastFailure.get(key);
      if (earlier !== undefined) {
        const before = outcomes[earlier] as RunOutcome;
        outcomes[earlier] = { outcome: 'failed', detail: `${before.detail ?? 'failed'}; retried later` };
        lastFailure.delete(key);
      }
      if (own.outcome === 'failed') lastFailure.set(key, i);
    }
    if (own.outcome === 'committed') sinceCommit = [];
    else if (own.outcome === 'reverted') {
      const command = run.command ?? '';
      const named = sinceCommit.filter((j) => {
        const target = runs[j]?.target;
        return target !== undefined && (command.includes(target) || command.includes(target.split('/').pop() ?? target));
      });
      for (const j of named.length > 0 ? named : sinceCommit) {
        outcomes[j] = { outcome: 'reverted', detail: 'later reverted' };
      }
      // A revert that names no file undoes every edit since the last commit.
      sinceCommit = named.length === 0 ? [] : sinceCommit.filter((j) => !named.includes(j));
    } else if (run.target !== undefined && EDIT_TOOLS.test(run.name) && own.outcome === undefined) sinceCommit.push(i);
  });
  return outcomes;
}
