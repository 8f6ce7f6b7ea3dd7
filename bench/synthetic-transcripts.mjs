// Synthetic transcripts for the capture benchmark and for scripts/compare-prompts.mjs: the benchmark's
// realistic 10 MB session, and seeded varied sessions that put secrets, look-alikes, test summaries, exit codes,
// rejections, git commands, edits, pasted logs and injected context at the places the renderer cuts.
import { readFileSync, writeFileSync } from 'node:fs';
import { seededRandom } from '../scripts/seeded-random.mjs';

const common = { isSidechain: false, userType: 'external', cwd: '/work/app', sessionId: 'bench', version: '2.1.39' };
const line = (record) => `${JSON.stringify(record)}\n`;

/** The benchmark's session: questions, answers, tool calls and their results (listings, source, logs), a few secrets. */
export function writeBenchTranscript(file, bytes) {
  const source = 'export function handler(req, res) {\n  const total = req.items.reduce((sum, item) => sum + item.cents, 0);\n  return res.json({ total });\n}\n';
  const log = '2026-01-01T00:00:00Z INFO request served in 12 ms path=/api/orders status=200\n';
  const parts = [];
  let size = 0;
  for (let k = 0; size < bytes; k += 1) {
    const result = k % 3 === 0 ? source.repeat(20 + (k % 40)) : k % 3 === 1 ? log.repeat(30 + (k % 90)) : `token=ghp_${'a1B2c3D4e5'.repeat(4)} ${log.repeat(10)}`;
    const chunk =
      line({ type: 'user', message: { role: 'user', content: `Step ${k}: you MUST keep money in integer cents; check the orders handler.` }, ...common, uuid: `u${k}` }) +
      line({ type: 'assistant', message: { id: `m${k}`, role: 'assistant', content: [{ type: 'text', text: `Looking at step ${k}.` }, { type: 'tool_use', id: `t${k}`, name: k % 2 ? 'Read' : 'Bash', input: k % 2 ? { file_path: `/work/app/src/f${k}.ts` } : { command: `npm test -- ${k}` } }] }, ...common, uuid: `a${k}` }) +
      line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${k}`, content: result }] }, ...common, uuid: `r${k}` });
    parts.push(chunk);
    size += Buffer.byteLength(chunk);
  }
  writeFileSync(file, parts.join(''));
}


function readCorpus(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l).text);
}

/**
 * A varied session from `seed`: `corpusFiles` give texts (secrets and look-alikes) placed at the head, around the
 * cut, in the middle and at the tail of tool outputs of many lengths, in what the user types, in commands and in
 * the assistant's words.
 */
export function writeVariedTranscript(file, seed, corpusFiles, turns = 400) {
  const rand = seededRandom(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const corpus = corpusFiles.flatMap(readCorpus);
  const filler = [
    'src/app.ts:12:  const total = items.reduce((a, b) => a + b, 0);\n',
    '2026-01-01T00:00:00Z INFO served in 12 ms\n',
    '  ✓ test/unit/orders.test.ts (12 tests) 40ms\n',
    'drwxr-xr-x  5 dev dev 4096 Jan  1 00:00 src\n',
    '    at Object.<anonymous> (/work/app/src/x.ts:3:9)\n',
    'Compiling app v0.1.0 (/work/app)\n',
    '   \n',
    '\n\n\n',
    'line with trailing spaces   \n',
    'héllo wörld — ünïcödé 日本語のテキスト 🎉\n',
    '\u001b[31mred\u001b[0m text\n',
  ];
  const endings = [
    '',
    'Exit code 1\n',
    'Tests: 1 failed, 45 passed, 46 total\n',
    ' Test Files  3 passed (3)\n      Tests  40 passed (40)\n',
    'FAIL src/x.test.ts\n',
    "The user doesn't want to proceed with this tool use.\n",
    'npm ERR! code ELIFECYCLE\n',
    'error TS2322: Type string is not assignable\n',
    'process exited with code 2\n',
    '87 tests, 0 failures\n',
    'Traceback (most recent call last):\n  File "x.py", line 1\n',
  ];
  const texts = (n) => Array.from({ length: n }, () => (rand() < 0.3 ? `${pick(corpus)}\n` : pick(filler))).join('');
  const output = () => {
    const size = pick([0, 1, 3, 10, 30, 60, 200]);
    let body = texts(size);
    const at = Math.floor(rand() * (body.length + 1));
    if (rand() < 0.5) body = `${body.slice(0, at)}${pick(corpus)}${body.slice(at)}`;
    const head = rand() < 0.2 ? (rand() < 0.5 ? 'Exit code 1\n' : `${pick(corpus)}\n`) : '';
    return `${head}${body}${pick(endings)}`;
  };
  const tools = [
    () => ({ name: 'Bash', input: { command: pick(['npm test', 'npx vitest run', 'git commit -m "x"', 'git checkout -- src/a.ts', 'git stash', 'ls -la', 'cargo test', `curl -H "Authorization: Bearer ${'a1B2c3'.repeat(6)}" https://x`, pick(corpus)]) } }),
    () => ({ name: 'Read', input: { file_path: `/work/app/src/f${Math.floor(rand() * 9)}.ts` } }),
    () => ({ name: 'Edit', input: { file_path: `/work/app/src/f${Math.floor(rand() * 3)}.ts`, old_string: pick(['a', 'b', 'c']), new_string: pick(['a', 'b', 'c']) } }),
    () => ({ name: 'Write', input: { file_path: `/work/app/src/f${Math.floor(rand() * 3)}.ts`, content: pick(['x', 'y']) } }),
    () => ({ name: 'Grep', input: { pattern: 'TODO', path: 'src' } }),
    () => ({ name: 'Task', input: { description: 'look around', prompt: texts(2) } }),
  ];
  const says = [
    'no, that is wrong; use integer cents instead of floats',
    'still failing',
    'revert that please',
    'why did you delete the test?',
    'ok',
    'thanks, looks good',
    'can you check the orders handler?',
    'What does this function return?',
    "let's use pnpm instead of npm from now on",
    'no I meant the other file',
    '还是报错',
    'Please add a test for the refund path. Keep the money in integer cents and never log the card number.',
  ];
  const parts = [];
  for (let k = 0; k < turns; k += 1) {
    const r = rand();
    const user = r < 0.15 ? `${pick(says)} ${pick(corpus)}` : r < 0.2 ? `${pick(says)}\n\`\`\`\n${texts(12)}\`\`\`` : r < 0.25 ? `<system-reminder>injected ${pick(corpus)}</system-reminder>${pick(says)}` : r < 0.28 ? `<command-name>/review</command-name><command-args>${pick(says)}</command-args>` : r < 0.3 ? `<bash-input>ls ${pick(corpus)}</bash-input><bash-stdout>${texts(3)}</bash-stdout>` : r < 0.32 ? '[Request interrupted by user]' : pick(says);
    parts.push(line({ type: 'user', message: { role: 'user', content: user }, ...common, uuid: `u${k}` }));
    const steps = Math.floor(rand() * 4);
    for (let s = 0; s < steps; s += 1) {
      const tool = pick(tools)();
      const said = rand() < 0.2 ? `Now let me ${pick(['run the tests', 'look'])}:` : rand() < 0.1 ? `That didn't work, let me try a different approach. ${texts(1)}` : rand() < 0.1 ? `Here ${pick(corpus)}` : `Looking at step ${k}.${rand() < 0.1 ? ` ${texts(20)}` : ''}`;
      const id = `t${k}_${s}`;
      parts.push(line({ type: 'assistant', message: { id: `m${k}_${s}`, role: 'assistant', content: [{ type: 'text', text: said }, { type: 'tool_use', id, ...tool }] }, ...common, uuid: `a${k}_${s}` }));
      if (rand() < 0.05) parts.push(line({ type: 'user', isSidechain: true, message: { role: 'user', content: texts(2) }, uuid: `s${k}_${s}` }));
      if (rand() < 0.95) parts.push(line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output(), is_error: rand() < 0.05 }] }, ...common, uuid: `r${k}_${s}` }));
    }
    if (rand() < 0.02) parts.push(line({ type: 'user', isCompactSummary: true, message: { role: 'user', content: `Summary: ${texts(30)}` }, uuid: `c${k}` }));
    if (rand() < 0.6) parts.push(line({ type: 'assistant', message: { id: `f${k}`, role: 'assistant', content: [{ type: 'text', text: `Done with ${k}. ${texts(Math.floor(rand() * 40))}` }] }, ...common, uuid: `f${k}` }));
    if (rand() < 0.02) parts.push('{"type": "user", "message": broken\n');
    if (rand() < 0.02) parts.push('{"type":"progress","data":{"x":1}}\n');
  }
  writeFileSync(file, parts.join(''));
}
