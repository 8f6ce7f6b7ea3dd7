import { describe, expect, it } from 'vitest';
import { classifyRun, commandHeads, markOutcomes } from '../../../src/transcript/mark-outcomes.js';
import type { ToolRun } from '../../../src/transcript/mark-outcomes.js';
import { ToolOutput } from '../../../src/transcript/tool-output.js';

/** A result's snippet as the parser makes it: redacted and cut when first read. */
const out = (text: string): ToolOutput => ToolOutput.deferred(text, 300);

const bash = (command: string, output = '', isError = false): ToolRun => ({ name: 'Bash', command, output: out(output), isError });
const edit = (target: string): ToolRun => ({ name: 'Edit', target, output: out('The file has been updated.'), isError: false });

describe('classifyRun', () => {
  it.each([
    ['a tool error', { name: 'Read', output: out('File does not exist.'), isError: true }, 'failed'],
    ['a non-zero exit', bash('ls nope', 'Exit code 2\nls: cannot access'), 'failed'],
    ['failing tests', bash('pnpm test', ' Test Files  1 failed | 45 passed (46)'), 'failed'],
    ['a failing build', bash('npx tsc -p .', "src/a.ts(3,5): error TS2322: Type 'number' is not assignable"), 'failed'],
    ['passing tests', bash('pnpm test', ' Test Files  46 passed (46)'), 'passed'],
    ['"0 failures"', bash('mix test', '87 tests, 0 failures'), 'passed'],
    ['a commit', bash('git add -A && git commit -m "feat: x"', '[main 4f2a9c1] feat: x'), 'committed'],
    ['a revert', bash('git checkout -- src/retry.ts'), 'reverted'],
    ['a rejected call', { name: 'Bash', command: 'rm -rf build', output: out("The user doesn't want to proceed with this tool use."), isError: true }, 'rejected'],
  ])('reads %s', (_what, run, outcome) => {
    expect(classifyRun(run).outcome).toBe(outcome);
  });

  it('does not take words in a command argument for a test run', () => {
    expect(classifyRun(bash('bd close x --reason="done, with tests"', 'Closed x')).outcome).toBeUndefined();
    expect(classifyRun(bash('echo "build failed"', 'build failed')).outcome).toBeUndefined();
  });

  it('reads a file full of error words as nothing but a read', () => {
    expect(classifyRun({ name: 'Read', target: 'src/errors.ts', output: out('export class TestFailed extends Error {} // 3 failed'), isError: false }).outcome).toBeUndefined();
  });

  it('splits a shell line into its commands without leading assignments', () => {
    expect(commandHeads('CI=1 pnpm test && git commit -m x | tee log; sudo make')).toEqual(['pnpm test', 'git commit -m x', 'tee log', 'make']);
  });
});

describe('markOutcomes', () => {
  it('marks a failed command that was run again as retried, and the run after it as its own outcome', () => {
    const outcomes = markOutcomes([bash('pnpm test', 'Exit code 1\n1 failed'), edit('src/a.ts'), bash('pnpm test', '46 passed')]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', undefined, 'passed']);
    expect(outcomes[0]?.detail).toContain('retried later');
  });

  it('marks the edit a later revert names as reverted, and leaves other edits alone', () => {
    const outcomes = markOutcomes([edit('/work/app/src/retry.ts'), edit('/work/app/src/keep.ts'), bash('git checkout -- src/retry.ts')]);
    expect(outcomes.map((o) => o.detail)).toEqual(['later reverted', undefined, 'reverted changes']);
  });

  it('marks every edit since the last commit when a revert names no file', () => {
    const outcomes = markOutcomes([edit('a.ts'), bash('git commit -am x', '[main 1] x'), edit('b.ts'), edit('c.ts'), bash('git stash')]);
    expect(outcomes.map((o) => o.outcome)).toEqual([undefined, 'committed', 'reverted', 'reverted', 'reverted']);
  });

  it('does not count a search of a file as a change to it', () => {
    const outcomes = markOutcomes([{ name: 'Grep', target: 'src/retry.ts', output: out('x'), isError: false }, bash('git checkout -- src/retry.ts')]);
    expect(outcomes[0]?.outcome).toBeUndefined();
  });
});

describe('edits written back', () => {
  const write = (target: string, content: string): ToolRun => ({ name: 'Edit', target, edit: { before: `b-${content}`, after: content }, output: out('ok'), isError: false });

  it('marks an edit swapped back, and the edit that did it, as reverted, and leaves the other edits of the file alone', () => {
    const outcomes = markOutcomes([
      { name: 'Edit', target: 'a.ts', edit: { before: 'x', after: 'y' }, output: out('ok'), isError: false },
      write('a.ts', 'other'),
      { name: 'Edit', target: 'a.ts', edit: { before: 'y', after: 'x' }, output: out('ok'), isError: false },
      write('b.ts', 'kept'),
    ]);
    expect(outcomes.map((o) => o.detail)).toEqual(['later written back', undefined, 'wrote an earlier change back', undefined]);
  });

  it('marks the writes a whole-file write undid', () => {
    const whole = (content: string): ToolRun => ({ name: 'Write', target: 'c.ts', edit: { after: content }, output: out('ok'), isError: false });
    const outcomes = markOutcomes([whole('v1'), whole('v2'), whole('v3'), whole('v1')]);
    expect(outcomes.map((o) => o.outcome)).toEqual([undefined, 'reverted', 'reverted', 'reverted']);
  });
});

describe('test counts and exit codes', () => {
  it('puts the counts a run printed in its detail', () => {
    expect(classifyRun({ name: 'Bash', command: 'pnpm test', tests: '2 failed, 40 passed', output: out('x'), isError: false })).toEqual({ outcome: 'failed', detail: 'tests or build failed; 2 failed, 40 passed' });
    expect(classifyRun({ name: 'Bash', command: './scripts/run-checks.sh', tests: '12 passed', output: out('x'), isError: false })).toEqual({ outcome: 'passed', detail: 'tests passed; 12 passed' });
  });

  it('reads an exit status a runner prints at the end of its output', () => {
    expect(classifyRun({ name: 'Bash', command: 'make deploy', output: out('deploying...\nmake: *** [deploy] Error 2\nprocess exited with code 2'), isError: false })).toMatchObject({ outcome: 'failed', detail: 'exit code 2' });
  });

  it('reads git checkout of a file as a revert and of a branch as nothing', () => {
    expect(classifyRun({ name: 'Bash', command: 'git checkout src/retry.ts', output: out(''), isError: false }).outcome).toBe('reverted');
    expect(classifyRun({ name: 'Bash', command: 'git checkout feature/login', output: out(''), isError: false }).outcome).toBeUndefined();
    expect(classifyRun({ name: 'Bash', command: 'git reset HEAD~1', output: out(''), isError: false }).outcome).toBe('reverted');
    expect(classifyRun({ name: 'Bash', command: 'git stash pop', output: out(''), isError: false }).outcome).toBeUndefined();
  });
});
