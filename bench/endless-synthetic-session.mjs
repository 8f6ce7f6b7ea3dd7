// A synthetic Claude Code session of N tool uses, shaped like the real transcripts (user/assistant
// lines with uuid chains, tool_result plus toolUseResult, progress lines), with a size mix modelled
// on the long real session: most results small, about one in five over 4,000 characters.
const SESSION = 'b0b0b0b0-1111-4222-8333-444444444444';

function testLog(seed, lines) {
  const out = [];
  for (let i = 0; i < lines; i += 1) out.push(`\u001b[32m ✓\u001b[0m test/unit/mod-${(seed + i) % 97}/case-${i}.test.ts (${(i * 7) % 13 + 1} tests) ${(i * 37 + seed) % 90}ms`);
  out.push(` FAIL  test/unit/mod-${seed % 97}/billing.test.ts > refund ${seed}`, `AssertionError: expected ${seed} to be ${seed + 1}`, ` Tests  1 failed | ${lines} passed`);
  return out.join('\n');
}

function source(seed, lines) {
  return Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(6)}→${i % 30 === 0 ? `export function fn${seed}_${i}(x: number) {` : `  const v${i} = compute${seed % 7}(x, ${i}); // step ${i}`}`).join('\n');
}

/** Returns the JSONL text of a session with `toolUses` tool calls. */
export function syntheticSession(toolUses = 2000) {
  const lines = [];
  let parent = null;
  let n = 0;
  const common = { isSidechain: false, userType: 'external', cwd: '/work/bench', sessionId: SESSION, version: '2.1.39', gitBranch: 'main' };
  const push = (obj) => {
    n += 1;
    const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    lines.push(JSON.stringify({ parentUuid: parent, ...common, ...obj, uuid, timestamp: new Date(1_770_000_000_000 + n * 1000).toISOString() }));
    parent = uuid;
    return uuid;
  };
  push({ type: 'user', message: { role: 'user', content: 'Work through the backlog.' } });
  for (let i = 0; i < toolUses; i += 1) {
    const id = `toolu_bench_${String(i).padStart(5, '0')}`;
    const kind = i % 20;
    let name, input, content, result;
    if (kind < 2) {
      const text = testLog(i, 70 + (i % 40));
      [name, input, content, result] = ['Bash', { command: 'npm test', description: 'Run tests' }, text, { stdout: text, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }];
    } else if (kind === 2) {
      const text = Array.from({ length: 90 }, (_, j) => `/work/bench/src/m${j % 13}/f${j}.ts:${j * 7 + 1}:  const refund = toCents(amount${i}_${j});`).join('\n');
      [name, input, content, result] = ['Grep', { pattern: 'toCents', output_mode: 'content' }, text, { mode: 'content', numFiles: 0, filenames: [], content: text, numLines: 90 }];
    } else if (kind === 3) {
      const text = Array.from({ length: 120 }, (_, j) => `Section ${j}: the API accepts parameter p${j} (${i}) and returns field r${j}.`).join('\n');
      [name, input, content, result] = ['WebFetch', { url: `https://docs.example/${i}`, prompt: 'summarise' }, text, { bytes: text.length * 3, code: 200, codeText: 'OK', result: text, durationMs: 900, url: `https://docs.example/${i}` }];
    } else if (kind === 4 && i % 40 === 4) {
      const text = source(i, 420);
      [name, input, content, result] = ['Read', { file_path: `/work/bench/src/big${i}.ts` }, text, { type: 'text', file: { filePath: `/work/bench/src/big${i}.ts`, content: text, numLines: 420, startLine: 1, totalLines: 420 } }];
    } else if (kind < 12) {
      const text = source(i, 25);
      [name, input, content, result] = ['Read', { file_path: `/work/bench/src/f${i}.ts` }, text, { type: 'text', file: { filePath: `/work/bench/src/f${i}.ts`, content: text, numLines: 25, startLine: 1, totalLines: 25 } }];
    } else if (kind < 16) {
      [name, input, content, result] = ['Edit', { file_path: `/work/bench/src/f${i}.ts`, old_string: `v${i}`, new_string: `w${i}` }, `The file /work/bench/src/f${i}.ts has been updated.`, { filePath: `/work/bench/src/f${i}.ts`, oldString: `v${i}`, newString: `w${i}`, originalFile: source(i, 8), structuredPatch: [], userModified: false, replaceAll: false }];
    } else {
      const text = ` ok ${i}\n${'done\n'.repeat(kind)}`;
      [name, input, content, result] = ['Bash', { command: `git status # ${i}` }, text, { stdout: text, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }];
    }
    const a = push({ type: 'assistant', message: { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'tool_use', id, name, input }], usage: { input_tokens: 3, output_tokens: 50 } }, requestId: `req_${i}` });
    if (i % 5 === 0) push({ type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: `PostToolUse:${name}` }, parentToolUseID: id, toolUseID: id });
    push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content }] }, toolUseResult: result, sourceToolAssistantUUID: a });
  }
  push({ type: 'assistant', message: { id: 'msg_end', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Backlog done.' }] } });
  return { text: `${lines.join('\n')}\n`, sessionId: SESSION };
}
