import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readStance } from '../../../src/transcript/read-stance.js';
import type { Stance } from '../../../src/transcript/read-stance.js';
import { splitPasted } from '../../../src/transcript/split-pasted.js';

interface Labelled {
  text: string;
  reply: boolean;
  label: Stance | 'none';
}

const load = (name: string): Labelled[] =>
  readFileSync(new URL(`../../fixtures/stance/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Labelled);

const stanceOf = (item: Labelled): Stance | 'none' => readStance(splitPasted(item.text).typed, { reply: item.reply }).stance ?? 'none';

function precision(set: readonly Labelled[], label: Stance): number {
  const predicted = set.filter((item) => stanceOf(item) === label);
  return predicted.filter((item) => item.label === label).length / Math.max(1, predicted.length);
}

describe('readStance', () => {
  it.each([
    ['ok. uh. no. the ci is running on this host', 'corrects'],
    ["ok. let's use apple container instead of docker proper", 'decides'],
    ['did you push?', 'asks'],
    ['great, tests pass. Commit it.', 'agrees'],
    ['Can you add an index on orders(customer_id)?', undefined],
    ['Why did you change the retry count? Revert that.', 'corrects'],
    ['改用 pnpm，不要再用 npm 了', 'decides'],
    ['还是报错', 'corrects'],
    ['好的', 'agrees'],
    ['这个方案不行，换一个', 'corrects'],
    ['测试还是挂了', 'corrects'],
    ['先别提交', 'corrects'],
    ['这个函数在哪里定义的？', 'asks'],
    ['给登录接口加上错误处理', undefined],
    ['请求失败时要重试三次', undefined],
    ['以后都用 pnpm', 'decides'],
  ] as const)('reads "%s" as %s', (text, stance) => {
    expect(readStance(text, { reply: true }).stance).toBe(stance);
  });

  it('tells a failure report and a request to undo apart from other corrections', () => {
    expect(readStance('still failing after your change', { reply: true })).toMatchObject({ failed: true, undo: false });
    expect(readStance('that broke the build, revert it', { reply: true })).toMatchObject({ failed: true, undo: true });
    expect(readStance('撤销刚才的修改', { reply: true })).toMatchObject({ undo: true });
    expect(readStance('no, use the other file', { reply: true })).toMatchObject({ stance: 'corrects', failed: false, undo: false });
  });

  it('reads a pasted stack trace in a reply as a report that something failed', () => {
    const trace = ['TypeError: x is undefined', ...Array.from({ length: 6 }, (_, i) => `    at f${i} (/app/src/a.ts:${i + 1}:3)`)].join('\n');
    expect(readStance(splitPasted(`when I click save\n${trace}`).typed, { reply: true })).toMatchObject({ stance: 'corrects', failed: true });
  });

  it('does not read a correction or an agreement into the message that opens a session', () => {
    expect(readStance('No tests yet, start with the schema.', { reply: false }).stance).toBeUndefined();
    expect(readStance('ok, set up the repo', { reply: false }).stance).toBeUndefined();
    expect(readStance('Revert the last release commit on main.', { reply: false }).undo).toBe(false);
  });

  it('is not fooled by undo as a feature, or by "no" as a word', () => {
    expect(readStance('now add undo/redo support to the editor', { reply: true }).stance).toBeUndefined();
    expect(readStance('no tests touch the database, so add one', { reply: true }).stance).toBeUndefined();
  });
});

describe('readStance against messages labelled by hand from real sessions', () => {
  const development = load('labelled-messages.jsonl');
  const heldOut = load('held-out-messages.jsonl');

  it('holds its precision on the development set', () => {
    expect(development.length).toBeGreaterThanOrEqual(300);
    expect(precision(development, 'corrects')).toBeGreaterThanOrEqual(0.85);
    expect(precision(development, 'agrees')).toBeGreaterThanOrEqual(0.8);
    expect(precision(development, 'asks')).toBeGreaterThanOrEqual(0.75);
  });

  it('labels more of the held-out set right than the first-word rules it replaced', () => {
    const right = heldOut.filter((item) => stanceOf(item) === item.label).length;
    const OLD_CORRECTS = /^(?:no\b|nope|don'?t|do not|never|stop|wrong|not like that|actually|instead|revert|undo|why did you|that'?s not|please don'?t)/i;
    const OLD_AGREES = /^(?:yes|yep|yeah|great|perfect|thanks|thank you|lgtm|looks good|sounds good|works|nice|exactly|correct|good|ok(?:ay)?|ship it|approved?|confirmed)\b/i;
    const old = (item: Labelled): string => (!item.reply ? 'none' : OLD_CORRECTS.test(item.text.trim()) ? 'corrects' : OLD_AGREES.test(item.text.trim()) && item.text.trim().length <= 200 ? 'agrees' : 'none');
    const oldRight = heldOut.filter((item) => old(item) === item.label).length;
    expect(right).toBeGreaterThan(oldRight);
    expect(precision(heldOut, 'corrects')).toBeGreaterThanOrEqual(0.85);
  });
});
