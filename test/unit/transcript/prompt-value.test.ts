/**
 * What the model sees, by value (issue 32's "Why"): the session's conclusion whole while narration is
 * shortened, outcomes told in a session where the user said a lot, abandoned and reverted attempts labelled,
 * a message's stance read from what it does, and left-out events marked once per run.
 */
import { describe, expect, it } from 'vitest';
import { foldSession } from '../../../src/transcript/fold-session.js';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { renderSession } from '../../../src/transcript/render-session.js';

const line = (value: unknown): string => JSON.stringify(value);
const user = (content: unknown) => line({ type: 'user', message: { role: 'user', content } });
let msg = 0;
const say = (text: string) => line({ type: 'assistant', message: { id: `m${(msg += 1)}`, role: 'assistant', content: [{ type: 'text', text }] } });
let calls = 0;
function tool(name: string, input: Record<string, unknown>, output: string, isError = false): string[] {
  calls += 1;
  const id = `t${calls}`;
  return [
    line({ type: 'assistant', message: { id: `m${(msg += 1)}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } }),
    user([{ type: 'tool_result', tool_use_id: id, content: output, ...(isError ? { is_error: true } : {}) }]),
  ];
}
const bash = (command: string, output: string, isError = false) => tool('Bash', { command }, output, isError);
const read = (file: string) => tool('Read', { file_path: file }, `const x = 1;\n`.repeat(200));
const render = (lines: string[], maxChars = 12_000) => renderSession(foldSession(lines.flatMap(parseTranscriptLine)), maxChars);

/** An autonomous stretch of work: reads, narration, edits and test runs. */
function work(k: number): string[] {
  return [
    say(`Now let me look at module ${k}:`),
    ...read(`/repo/src/module${k}/index.ts`),
    say(`Next, update the handler in module ${k}:`),
    ...tool('Edit', { file_path: `/repo/src/module${k}/index.ts`, old_string: `const a${k} = 1;`, new_string: `const a${k} = 2;` }, 'The file has been updated.'),
    ...bash(`pnpm vitest run test/module${k}`, ` Test Files  1 passed (1)\n      Tests  ${k + 3} passed (${k + 3})`),
  ];
}

describe('the conclusion whole, narration first to go', () => {
  it("keeps the session's final message whole in a long session and shortens the narration", () => {
    const conclusion = ['Done. Summary of what changed:', ...Array.from({ length: 30 }, (_, i) => `- module ${i}: the handler now validates its input with zod and returns 422 on a bad request (${i} tests added).`)].join('\n');
    expect(conclusion.length).toBeGreaterThan(2_500);
    const lines = [user('Add request validation to every module.'), ...Array.from({ length: 40 }, (_, k) => work(k)).flat(), say(conclusion)];
    const { text, stats } = render(lines);
    expect(text).toContain(conclusion.split('\n').join('\n  '));
    expect(stats.conclusion).toMatchObject({ keptShare: 1 });
    // No narration line survives at the expense of the conclusion.
    expect(text.length).toBeLessThanOrEqual(12_000);
  });

  it("keeps the user's last instruction whole when many long messages compete", () => {
    const filler = (i: number) => `Message ${i}: ${'please keep the naming consistent with the rest of the module and avoid clever abstractions. '.repeat(12)}`;
    const last = `Final instruction: ${'ship the release branch only after the staging smoke test passes and the changelog lists every migration. '.repeat(10)}`;
    const lines = [...Array.from({ length: 30 }, (_, i) => [user(filler(i)), say(`Done with ${i}.`)]).flat(), user(last), say('Understood.')];
    const { text } = render(lines);
    expect(last.length).toBeGreaterThan(1_000);
    expect(text).toContain(last.trim());
  });

  it('keeps every typed message when the conclusion and the last instruction are long too', () => {
    const asks = Array.from({ length: 40 }, (_, i) => `Request ${i}: make the ${['orders', 'refunds', 'invoices', 'carts'][i % 4]} page load faster`);
    const last = `Last: ${'keep the cache warm across deploys and never drop it on a schema change. '.repeat(60)}`;
    const report = `Report: ${'the cache now survives deploys; the warmer runs after each migration. '.repeat(80)}`;
    const lines = [...asks.flatMap((a, i) => [user(a), ...bash(`pnpm test test/page${i}`, '      Tests  3 passed (3)'), say(`Done with ${i}.`)]), user(last), say(report)];
    const { text, stats } = render(lines);
    expect(stats.typedMessagesShown).toBe(41);
    for (const a of asks) expect(text).toContain(a);
    expect(text.length).toBeLessThanOrEqual(12_000);
  });
});

describe('outcomes in a session where the user says a lot', () => {
  it('tells every one of 22 tool errors in a session of 40 long user messages', () => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      lines.push(user(`Step ${i}: ${'the dashboard should load the orders list from the cache first and fall back to the API. '.repeat(3)}`));
      if (i < 22) lines.push(...bash(`pnpm build --filter app${i}`, `Exit code 1\nsrc/app${i}.ts(3,5): error TS2322: Type 'number' is not assignable to type 'string'.`, true));
      lines.push(say(`Looked at step ${i}.`));
    }
    const { text } = render(lines);
    expect(text.match(/→ FAILED/g)?.length ?? 0).toBe(22);
  });

  it('tells the 5 errors of a session whose users and conclusions fill most of the budget', () => {
    const lines: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      lines.push(user(`Request ${i}: ${'make the invoice export stream rows instead of buffering the whole report in memory. '.repeat(8)}`));
      if (i % 3 === 0) lines.push(...bash(`pnpm test test/export${i}.test.ts`, `Exit code 1\n FAIL test/export${i}.test.ts\n      Tests  2 failed | 10 passed (12)`, true));
      lines.push(say(`Export step ${i} is in place. ${'The writer flushes every 500 rows and the test covers a 1 GB report. '.repeat(10)}`));
    }
    lines.push(...bash('pnpm lint', 'Exit code 2\nsrc/export.ts: 3 problems', true));
    lines.push(say('All done.'));
    const { text } = render(lines);
    expect(text.match(/→ FAILED/g)?.length ?? 0).toBe(5);
    expect(text).toContain('FAILED (exit code 1; 2 failed, 10 passed)');
  });
});

describe('abandoned and reverted attempts', () => {
  it('labels the work the user asked to undo REVERTED, and the claim the user said still fails FAILED', () => {
    const lines = [
      user('Fix the flaky login test.'),
      ...tool('Edit', { file_path: '/repo/src/login.ts', old_string: 'retries: 3', new_string: 'retries: 10' }, 'The file has been updated.'),
      say('Fixed: the login test retries ten times now.'),
      user('that broke the e2e suite, revert it'),
      ...bash('git checkout -- src/login.ts', ''),
      say('Reverted. Trying a wait for the session cookie instead.'),
      user('still failing'),
      say('The cookie is set after a redirect; I will wait for the redirect.'),
    ];
    const { text } = render(lines);
    expect(text).toContain('[tool Edit: /repo/src/login.ts] → REVERTED');
    expect(text).toContain('Assistant (REVERTED: the user asked to undo it): Fixed: the login test retries ten times now.');
    expect(text).toContain('Assistant (FAILED: the user said it does not work): Reverted. Trying a wait');
    expect(text).toContain('User (corrects the assistant): still failing');
  });

  it('labels the edits of an approach the assistant gave up on ABANDONED, and an edit written back REVERTED', () => {
    const lines = [
      user('Make the report export faster.'),
      ...tool('Edit', { file_path: '/repo/src/export.ts', old_string: 'stream(rows)', new_string: 'buffer(rows)' }, 'The file has been updated.'),
      ...bash('pnpm test test/export.test.ts', 'Exit code 1\n      Tests  1 failed | 8 passed (9)', true),
      say("That approach didn't work: buffering runs out of memory. Let me try a different approach."),
      ...tool('Edit', { file_path: '/repo/src/export.ts', old_string: 'buffer(rows)', new_string: 'stream(rows)' }, 'The file has been updated.'),
      ...tool('Edit', { file_path: '/repo/src/export.ts', old_string: 'batch: 100', new_string: 'batch: 5000' }, 'The file has been updated.'),
      ...bash('pnpm test test/export.test.ts', '      Tests  9 passed (9)'),
      say('Done: larger batches, still streaming.'),
    ];
    const { text } = render(lines);
    expect(text).toMatch(/\[tool Edit: \/repo\/src\/export\.ts\] → (?:ABANDONED|REVERTED)/);
    expect(text).toContain('→ REVERTED (wrote an earlier change back)');
    expect(text).toContain('→ passed (tests passed; 9 passed)');
  });
});

describe('stance labels by what the message does', () => {
  it('does not call a refusal that opens with "ok" agreement, and names a changed decision', () => {
    const lines = [
      user('Set up the dev environment with docker.'),
      say('I added a docker-compose.yml and started the stack.'),
      user('ok. uh. no. the ci is running on the same host, stop the stack'),
      say('Stopped it.'),
      user("ok. let's use apple container instead of docker proper"),
      say('Switched to apple container.'),
      user('did you update the readme?'),
      say('Yes.'),
      user('great, thanks'),
    ];
    const { text } = render(lines);
    expect(text).toContain('User (corrects the assistant): ok. uh. no. the ci is running');
    expect(text).toContain("User (changes a decision): ok. let's use apple container instead of docker proper");
    expect(text).toContain('User (asks): did you update the readme?');
    expect(text).toContain('User (agrees): great, thanks');
  });

  it('reads corrections in Chinese, Spanish, German, French, Japanese, Portuguese and Russian', () => {
    for (const reply of ['还是报错', 'sigue fallando', 'funktioniert immer noch nicht', 'ça ne marche toujours pas', 'まだ動かない', 'ainda não funciona', 'всё ещё не работает']) {
      const { text } = render([user('Fix the build.'), say('Fixed the import path.'), user(reply)]);
      expect(text).toContain(`User (corrects the assistant): ${reply}`);
      expect(text).toContain('Assistant (FAILED: the user said it does not work): Fixed the import path.');
    }
  });
});

describe('markers', () => {
  it('marks each run of left-out events once, and spends little of the budget on markers', () => {
    const lines = [user('Refactor every module.'), ...Array.from({ length: 120 }, (_, k) => work(k)).flat(), say('All modules refactored.')];
    const { text, stats } = render(lines);
    expect(stats.markers).toBeLessThanOrEqual(3);
    expect(text.match(/left out/g)?.length).toBe(stats.markers);
    expect(stats.chars.markers).toBeLessThanOrEqual(0.01 * 12_000);
    // What is shown is the newest work, in one piece, up to the conclusion.
    expect(text).toMatch(/module119\] → passed[\s\S]*Assistant: All modules refactored\.$/);
  });
});
