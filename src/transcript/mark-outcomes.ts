/**
 * What became of each tool call, read from the session itself: a tool error, a non-zero exit or failing tests
 * (failed, with the counts the run printed), a test or build run that went through (passed), a commit, a change
 * later reverted (by git, or by writing the old text back) or a command it had to run again, and a call the
 * user rejected. Pure.
 */
import type { EditPrint, Outcome } from './session-events.js';
import type { ToolOutput } from './tool-output.js';

/** Tools that run a shell command, by name (Claude Code, Factory droid and others). */
const COMMAND_TOOLS = /^(?:bash|execute|shell|terminal|run_terminal_cmd|run_command|exec|local_shell|powershell)$/i;
/** Tools that change a file: what a revert can undo. */
export const EDIT_TOOLS = /edit|write|create|patch|replace|insert|notebook/i;
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
/** Other ways a runner says a command ended badly, looked for at the end of its output. */
const EXIT_ELSEWHERE = /\b(?:exit(?:ed)? (?:with )?(?:code|status)|returned non-zero exit status|process exited with code|exit status)\s*:?\s*([1-9]\d*)\b/i;
const REJECTED = /\bThe user doesn't want to proceed with this tool use\b|\btool use was rejected\b/i;
/**
 * A word every match of REJECTED, EXIT_CODE and EXIT_ELSEWHERE holds (`tool use`, `exit`), and of TESTS_FAILED too
 * (`fail`, `error`, ...), in any case. Each match holds a space, a capital or a bracket that no redaction marker
 * holds, so it is a match in the text the snippet is made from: an output without these words has no outcome to
 * tell, and its snippet need not be made to know it (tool-output.ts).
 */
const END_WORDS = /tool use|exit/i;
const FAILURE_WORDS = /tool use|exit|fail|error|traceback|panicked at|command not found|npm err!/i;

/** The snippet of a run's output when it may tell an outcome by `words`, else nothing. */
function telling(output: ToolOutput | undefined, words: RegExp): string {
  return output !== undefined && output.mayHold(words) ? output.text : '';
}
const COMMIT = /^git\s+(?:-\S+\s+)*commit\b/;
/**
 * Git commands that throw work away: `checkout -- <file>` or `checkout <file.ext>` (not a branch switch),
 * `restore` (not `--staged` alone), `revert`, `reset --hard` or `reset HEAD~`, `stash` (not list/show/pop/apply).
 */
const REVERT = /^git\s+(?:checkout\s+(?:\S+\s+)?--\s|checkout\s+(?:(?:HEAD|@)\S*\s+)?(?:\.|\S+\.[A-Za-z]{1,6})\s*$|restore\b(?!\s+--staged\s+\S+\s*$)|revert\b|reset\s+(?:--(?:hard|keep|merge)\b|(?:--(?:soft|mixed)\s+)?HEAD[~^])|stash\b(?!\s+(?:list|show|pop|apply)))/;

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
  /** Fingerprints of the text an edit replaced and wrote. */
  edit?: EditPrint;
  output?: ToolOutput;
  /** The pass and fail counts the run printed (`1 failed, 45 passed`). */
  tests?: string;
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
  const command = isCommandTool(run);
  const heads = command ? commandHeads(run.command ?? '') : [];
  // A script that prints a test summary is a test run, whatever it is called.
  const testing = command && (anyHead(heads, TEST_OR_BUILD) || run.tests !== undefined);
  const output = telling(run.output, testing ? FAILURE_WORDS : END_WORDS);
  if (REJECTED.test(output)) return { outcome: 'rejected', detail: 'rejected by the user' };
  const exit = EXIT_CODE.exec(output.trimStart())?.[1] ?? (command ? EXIT_ELSEWHERE.exec(output.slice(-400))?.[1] : undefined);
  const counts = run.tests === undefined ? '' : `; ${run.tests}`;
  const failedTests = run.tests !== undefined && /\d+ failed/.test(run.tests);
  if (exit !== undefined) return { outcome: 'failed', detail: `exit code ${exit}${counts}` };
  if (run.isError) return { outcome: 'failed', detail: failedTests ? `tests failed${counts}` : 'tool error' };
  if (!command) return {};
  if (testing && (failedTests || TESTS_FAILED.some((pattern) => pattern.test(output)))) return { outcome: 'failed', detail: `tests or build failed${counts}` };
  if (anyHead(heads, COMMIT)) return { outcome: 'committed' };
  if (anyHead(heads, REVERT)) return { outcome: 'reverted', detail: 'reverted changes' };
  if (testing) return { outcome: 'passed', detail: `${heads.some((head) => /\btest/.test(head)) || run.tests !== undefined ? 'tests passed' : 'succeeded'}${counts}` };
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
  markWrittenBack(runs, outcomes);
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
    else if (own.outcome === 'reverted' && isCommandTool(run)) {
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

/**
 * Edits undone by writing the old text back: an edit that swaps back what an earlier edit of the same file
 * replaced, or a whole-file write that restores what the file held before later writes. Both the undone edits
 * and the one that undid them are marked.
 */
function markWrittenBack(runs: readonly ToolRun[], outcomes: RunOutcome[]): void {
  const byTarget = new Map<string, number[]>();
  runs.forEach((run, i) => {
    if (run.target === undefined || run.edit === undefined || run.isError) return;
    const earlier = byTarget.get(run.target) ?? [];
    const { before, after } = run.edit;
    let undone: number[] = [];
    if (before !== undefined) {
      const j = earlier.findLast((k) => runs[k]?.edit?.before === after && runs[k]?.edit?.after === before);
      if (j !== undefined) undone = [j];
    } else {
      const j = earlier.findLast((k) => runs[k]?.edit?.before === undefined && runs[k]?.edit?.after === after);
      if (j !== undefined) undone = earlier.filter((k) => k > j);
    }
    for (const k of undone) outcomes[k] = { outcome: 'reverted', detail: 'later written back' };
    if (undone.length > 0) outcomes[i] = { outcome: 'reverted', detail: 'wrote an earlier change back' };
    byTarget.set(run.target, [...earlier.filter((k) => !undone.includes(k)), i]);
  });
}
