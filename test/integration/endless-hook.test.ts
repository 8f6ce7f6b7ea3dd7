import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { entryPaths, readRecord } from '../../src/endless/endless-store.js';
import { compactObservationReply } from '../fixtures/endless/compact-reply.mjs';
import { runHook, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let closedPort: number;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  closedPort = await freePort();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.double.reset();
  h.double.configure({ reply: compactObservationReply });
});

const LOG = [
  '> app@1.0.0 test',
  ...Array.from({ length: 400 }, (_, i) => `\u001b[32m ✓\u001b[0m test/unit/module-${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}.test.ts (${(i % 9) + 1} tests) ${(i * 37) % 90}ms`),
  ' FAIL  test/unit/billing.test.ts > computes the refund in cents',
  'AssertionError: expected 1999 to be 2000',
  ' ❯ test/unit/billing.test.ts:42:31',
  ' Tests  1 failed | 1203 passed (1204)',
].join('\n');

let counter = 0;
function bash(stdout = LOG, extra: Record<string, unknown> = {}) {
  counter += 1;
  return {
    session_id: 'sess-it', transcript_path: '/tmp/x.jsonl', cwd: '/tmp', hook_event_name: 'PostToolUse',
    tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run tests' }, tool_use_id: `toolu_it_${counter}`,
    tool_response: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    ...extra,
  };
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...h.env, RECALL_ENDLESS_MODE: 'true', RECALL_HOOK_SPAWN: '0', ...extra };
}

async function timed(payload: unknown, e: NodeJS.ProcessEnv) {
  const started = Date.now();
  const result = await runHook('post-tool-use', payload, { env: e });
  return { ...result, ms: Date.now() - started, json: JSON.parse(result.stdout) as { hookSpecificOutput?: { hookEventName: string; updatedToolOutput: Record<string, unknown>; updatedMCPToolOutput?: unknown } } };
}

describe('recall hook post-tool-use', () => {
  it('replaces a large Bash output with the model\'s observation, in the Bash shape and far smaller', async () => {
    const payload = bash();
    const result = await timed(payload, env());
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const updated = result.json.hookSpecificOutput!.updatedToolOutput;
    expect(result.json.hookSpecificOutput!.hookEventName).toBe('PostToolUse');
    expect(Object.keys(updated).sort()).toEqual(['interrupted', 'isImage', 'noOutputExpected', 'stderr', 'stdout']);
    const stdout = String(updated.stdout);
    expect(stdout).toMatch(/^\[recall: Bash output of [\d,]+ chars, compressed to an observation\]\n## Bash: npm test/);
    expect(stdout).toContain('AssertionError: expected 1999 to be 2000');
    expect(stdout.length).toBeLessThan(LOG.length * 0.15);
    const paths = entryPaths(join(h.env.RECALL_HOME!), 'sess-it', payload.tool_use_id);
    expect(stdout.split('\n').at(-1)).toBe(`Full output: ${paths.text} (${LOG.length.toLocaleString('en-US')} chars, 405 lines; read it with the Read tool, offset/limit)`);
    expect(readFileSync(paths.text, 'utf8')).toBe(LOG);
    const chat = h.double.requestsTo('/api/chat')[0]!.body as Record<string, unknown>;
    expect(chat).toMatchObject({ model: 'llama3.2:3b', stream: false, format: { type: 'object' } });
  });

  it("compresses droid's Execute output from its payload (no tool_use_id, a plain string) under an id derived from the call", async () => {
    const transcript = join(h.root, 'droid-session.jsonl');
    writeFileSync(transcript, '{"type":"session_start","id":"droid-it"}\n');
    const payload = { session_id: 'droid-it', transcript_path: transcript, cwd: '/tmp', permission_mode: 'auto-high', hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command: 'npm test' }, tool_response: LOG };
    const result = await timed(payload, env());
    expect(result.exitCode).toBe(0);
    const updated = result.json.hookSpecificOutput!.updatedToolOutput as unknown;
    expect(typeof updated).toBe('string');
    expect(String(updated)).toMatch(/^\[recall: Execute output of [\d,]+ chars, compressed to an observation\]/);
    const id = /Full output: .*\/(derived_[0-9a-f]{24})\.txt/.exec(String(updated))?.[1];
    expect(id).toBeDefined();
    expect(readFileSync(entryPaths(h.env.RECALL_HOME!, 'droid-it', id!).text, 'utf8')).toBe(LOG);
  });

  it('keeps the full output private: files 0600 in a 0700 folder', async () => {
    const payload = bash();
    await timed(payload, env());
    const paths = entryPaths(h.env.RECALL_HOME!, 'sess-it', payload.tool_use_id);
    for (const file of [paths.text, paths.original, paths.record]) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(paths.original, 'utf8'))).toMatchObject({ toolName: 'Bash', response: payload.tool_response });
  });

  it('answers the reduction within the deadline when the model is slow, and finishes the observation in the background', async () => {
    h.double.configure({ delayMs: 4_000 });
    const payload = bash();
    const result = await timed(payload, env({ RECALL_SYNC_TIMEOUT_MS: '2000', RECALL_HOOK_SPAWN: '1' }));
    expect(result.exitCode).toBe(0);
    const stdout = String(result.json.hookSpecificOutput!.updatedToolOutput.stdout);
    expect(stdout).toMatch(/^\[recall: Bash output of [\d,]+ chars, reduced/);
    expect(stdout).toContain('FAIL  test/unit/billing.test.ts > computes the refund in cents');
    expect(stdout.length).toBeLessThan(3_000);
    const paths = entryPaths(h.env.RECALL_HOME!, 'sess-it', payload.tool_use_id);
    const record = await waitFor(() => {
      const r = readRecord(paths.record);
      return r?.observation ? r : undefined;
    }, { timeoutMs: 20_000, everyMs: 200 });
    expect(record).toMatchObject({ answer: 'reduction', attempts: 2, lastError: null, observation: { title: 'Bash: npm test' } });
  });

  it('answers the reduction when Ollama is down', async () => {
    const result = await timed(bash(), env({ OLLAMA_HOST: `http://127.0.0.1:${closedPort}` }));
    expect(result.exitCode).toBe(0);
    expect(String(result.json.hookSpecificOutput!.updatedToolOutput.stdout)).toMatch(/reduced/);
  });

  it('answers the reduction when the model answers garbage', async () => {
    h.double.configure({ garbage: true });
    const result = await timed(bash(), env());
    expect(String(result.json.hookSpecificOutput!.updatedToolOutput.stdout)).toMatch(/^\[recall: Bash output of [\d,]+ chars, reduced/);
  });

  it('answers the reduction when the model answers JSON that is not an observation', async () => {
    h.double.configure({ reply: '{"memories": []}' });
    const result = await timed(bash(), env());
    expect(String(result.json.hookSpecificOutput!.updatedToolOutput.stdout)).toMatch(/reduced/);
  });

  it('answers {} and writes nothing when Endless Mode is off', async () => {
    const home = join(h.root, 'off');
    const result = await timed(bash(), { ...env({ RECALL_HOME: home }), RECALL_ENDLESS_MODE: 'false' });
    expect(result.stdout).toBe('{}\n');
    expect(existsSync(join(home, 'endless'))).toBe(false);
    expect(h.double.requests).toHaveLength(0);
  });

  it('answers MCP tools through updatedMCPToolOutput too, in the form they came in', async () => {
    const payload = { ...bash(), tool_name: 'mcp__ci__job_log', tool_response: [{ type: 'text', text: LOG }] };
    const result = await timed(payload, env());
    const out = result.json.hookSpecificOutput!;
    expect(Array.isArray(out.updatedToolOutput)).toBe(true);
    expect(out.updatedMCPToolOutput).toEqual(out.updatedToolOutput);
  });

  it('leaves a Read result alone below the Read threshold, which is higher than for other tools', async () => {
    const content = LOG.slice(0, 10_000);
    const payload = { ...bash(), tool_name: 'Read', tool_response: { type: 'text', file: { filePath: '/p/a.ts', content, numLines: 200, startLine: 1, totalLines: 200 } } };
    expect((await timed(payload, env())).stdout).toBe('{}\n');
    expect((await timed(payload, env({ RECALL_ENDLESS_READ_MIN_CHARS: '5000' }))).json.hookSpecificOutput!.updatedToolOutput).toMatchObject({ type: 'text', file: { filePath: '/p/a.ts' } });
  });

  const bad: Array<[string, () => unknown]> = [
    ['a null tool_response', () => ({ ...bash(), tool_response: null })],
    ['a string tool_response', () => ({ ...bash(), tool_response: LOG })],
    ['a 50 MB stdin', () => JSON.stringify(bash('x'.repeat(50 * 1024 * 1024)))],
    ['a binary output', () => bash(`\u0000\u0001\u0002${'\uFFFD'.repeat(3000)}${'a'.repeat(5000)}`)],
    ['an output of unknown shape', () => ({ ...bash(), tool_response: { lines: [LOG] } })],
    ['an unknown tool', () => ({ ...bash(), tool_name: 'Frobnicate' })],
    ['an Edit', () => ({ ...bash(), tool_name: 'Edit', tool_response: { filePath: '/a', oldString: LOG, newString: LOG, originalFile: LOG } })],
    ['text that is not JSON', () => 'not json'],
  ];
  it.each(bad)('answers {} and exits 0 for %s', async (_label, make) => {
    const result = await timed(make(), env());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
  });
});

describe('the endless folder after the hook runs', () => {
  it('holds one record per tool_use_id', () => {
    const dir = join(h.env.RECALL_HOME!, 'endless', 'sess-it');
    const records = readdirSync(dir).filter((n) => n.endsWith('.record.json'));
    expect(records.length).toBeGreaterThanOrEqual(6);
    expect(new Set(records).size).toBe(records.length);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
