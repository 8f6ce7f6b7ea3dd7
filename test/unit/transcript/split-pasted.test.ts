import { describe, expect, it } from 'vitest';
import { splitPasted } from '../../../src/transcript/split-pasted.js';

const lines = (n: number, make: (i: number) => string): string => Array.from({ length: n }, (_, i) => make(i)).join('\n');

describe('splitPasted', () => {
  it('leaves a message that is all prose as typed', () => {
    const text = 'Use PostgreSQL 16 for the orders database.\n\nAnd keep the money in integer cents, please: floats bit us before.';
    expect(splitPasted(text)).toEqual({ typed: text, pasted: [] });
  });

  it.each([
    ['log', lines(8, (i) => `2026-03-02 08:10:0${i} INFO worker ${i} started`)],
    ['stack trace', `TypeError: Cannot read properties of undefined (reading 'id')\n${lines(6, (i) => `    at handler${i} (/app/src/h${i}.ts:${i + 10}:5)`)}`],
    ['stack trace', `Traceback (most recent call last):\n${lines(3, (i) => `  File "/app/m${i}.py", line ${i + 3}, in run`)}\nValueError: bad input`],
    ['diff', `diff --git a/src/x.ts b/src/x.ts\nindex 1a2b3c4..5d6e7f8 100644\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1,3 +1,3 @@\n-const a = 1;\n+const a = 2;`],
    ['code', "```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```"],
    ['data', '{\n  "name": "orders",\n  "version": "1.0.0",\n  "private": true\n}'],
  ])('finds a pasted %s and keeps it apart from the words around it', (kind, block) => {
    const split = splitPasted(`This is what I get:\n\n${block}\n\nWhat is going on?`);
    expect(split.pasted).toHaveLength(1);
    expect(split.pasted[0]?.kind).toBe(kind);
    expect(split.typed).toBe(`This is what I get:\n[pasted ${kind} #1]\nWhat is going on?`);
  });

  it('splits the user\'s own line off a pasted block with no blank line between them', () => {
    const split = splitPasted(`Getting this locally:\n${lines(5, (i) => `    at f${i} (/app/a.js:${i}:1)`)}`);
    expect(split.typed).toBe('Getting this locally:\n[pasted stack trace #1]');
    expect(split.pasted[0]?.lines).toBe(5);
  });

  it('takes a long structured document (a pasted review) as pasted, keeping the question after it', () => {
    const review = ['## Review of the API', '', '### src/api.ts', lines(12, (i) => `- line ${i * 3}: the handler should validate the payload before it saves anything`), '', '### Summary', 'Mostly fine.'].join('\n');
    const split = splitPasted(`Here is the review:\n\n${review}\n\nDo you agree?`);
    expect(split.pasted.map((p) => p.kind)).toEqual(['document']);
    expect(split.typed).toBe('Here is the review:\n[pasted document #1]\nDo you agree?');
  });

  it('keeps a short bulleted list the user wrote as typed', () => {
    const text = 'Please:\n\n- use zod for validation\n- return 422 on bad input\n- keep messages in English';
    expect(splitPasted(text).pasted).toEqual([]);
  });

  it('cuts a pasted block to a short excerpt that names its error line', () => {
    const log = lines(200, (i) => (i === 150 ? '2026-03-02 08:12:00 ERROR db: connection refused on 127.0.0.1:5432' : `2026-03-02 08:10:00 INFO tick ${i}`));
    const [block] = splitPasted(`CI says:\n\n${log}`).pasted;
    expect(block?.chars).toBe(log.length);
    expect(block?.excerpt.length).toBeLessThanOrEqual(240);
    expect(block?.excerpt).toContain('connection refused');
  });

  it('finds a quoted email as pasted', () => {
    const split = splitPasted('From the customer:\n\n> We cannot log in since Monday.\n> The page shows error 500.\n> Please help.\n\nCan you check?');
    expect(split.pasted.map((p) => p.kind)).toEqual(['quote']);
  });
});
