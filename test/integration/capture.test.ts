import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { claudeTranscript, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

interface JsonMemory {
  id: string;
  content: string;
  type: string;
  namespace: string;
  score?: number;
  seen_count: number;
  session_id: string | null;
}

async function listMemories(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<JsonMemory[]> {
  const result = await runCli(['list', '--json', ...extra], { env });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as JsonMemory[];
}

describe('recall capture', () => {
  it('stores the rules of a session once, and reinforces them when they come again', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-twice') };
    const project = h.project('shop');
    const transcript = h.session('shop-1', ['You MUST use pnpm, never npm.', 'Always store money as integer cents in a bigint column.']);

    const first = await runCli(['capture', transcript, '--cwd', project, '--session-id', 'shop-1', '--json'], { env });
    expect(first.exitCode).toBe(0);
    const result = JSON.parse(first.stdout) as { status: string; inserted: unknown[]; namespace: string };
    expect(result.status).toBe('stored');
    expect(result.namespace).toMatch(/^project:shop-[0-9a-f]{8}$/);
    expect(result.inserted).toHaveLength(2);

    const again = h.session('shop-2', ['You MUST use pnpm, never npm.']);
    const second = JSON.parse((await runCli(['capture', again, '--cwd', project, '--session-id', 'shop-2', '--json'], { env })).stdout) as {
      inserted: unknown[];
      reinforced: number;
    };
    expect(second.inserted).toHaveLength(0);
    expect(second.reinforced).toBe(1);

    const memories = await listMemories(env);
    expect(memories).toHaveLength(2);
    expect(memories.find((m) => m.content.includes('pnpm'))?.seen_count).toBe(2);
  });

  it('sends the model a redacted transcript with a JSON schema, stream:false and a large enough num_ctx', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-secret') };
    h.double.requests.length = 0;
    const transcript = h.session('secret', ['You MUST rotate the key AKIAIOSFODNN7EXAMPLE every month.', 'Never log password=hunter22 in tests.']);
    const result = await runCli(['capture', transcript, '--cwd', h.project('secret'), '--json'], { env });
    expect(result.exitCode).toBe(0);
    const chat = h.double.requestsTo('/api/chat')[0]!.body as { stream: boolean; format: unknown; options: { num_ctx: number }; messages: Array<{ content: string }> };
    expect(chat.stream).toBe(false);
    expect(chat.format).toMatchObject({ type: 'object' });
    expect(chat.options.num_ctx).toBeGreaterThanOrEqual(8192);
    const prompt = chat.messages.map((m) => m.content).join('\n');
    expect(prompt).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(prompt).not.toContain('hunter22');
    const stored = JSON.stringify(await listMemories(env));
    expect(stored).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(stored).not.toContain('hunter22');
  });

  it('names a missing transcript, or a folder given as one, before it asks for a model', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-missing'), RECALL_OLLAMA_LLM_MODEL: '' };
    const missing = join(h.root, 'no-such-session.jsonl');
    const gone = await runCli(['capture', missing], { env });
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toBe(`recall: transcript not found: ${missing}\n`);
    const folder = await runCli(['capture', h.root], { env });
    expect(folder.exitCode).toBe(1);
    expect(folder.stderr).toBe(`recall: ${h.root} is a folder: give one session file in it (the JSONL session files of Claude Code, Factory droid, Codex CLI, Gemini CLI, GitHub Copilot CLI and Qwen Code)\n`);
  });

  it('keeps two projects that share a folder name apart', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-same-name') };
    const a = join(h.root, 'a', 'api');
    const b = join(h.root, 'b', 'api');
    for (const dir of [a, b]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{}');
    }
    await runCli(['capture', h.session('api-a', ['You MUST use tabs for indentation.']), '--cwd', a], { env });
    await runCli(['capture', h.session('api-b', ['You MUST use tabs for indentation.']), '--cwd', b], { env });
    const memories = await listMemories(env);
    expect(memories).toHaveLength(2);
    expect(new Set(memories.map((m) => m.namespace)).size).toBe(2);
  });

  it("files a session under the project and session id its transcript records, when --cwd and --session-id are not given", async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-origin') };
    const project = h.project('origin-app');
    const file = join(h.root, 'origin.jsonl');
    writeFileSync(file, claudeTranscript('sess-origin-7', ['You MUST use pnpm, never npm.']).replaceAll('"/work/x"', JSON.stringify(project)));
    const result = await runCli(['capture', file, '--json'], { env, cwd: h.root });
    expect(result.exitCode).toBe(0);
    const memories = await listMemories(env);
    expect(memories.length).toBeGreaterThan(0);
    for (const memory of memories) {
      expect(memory.namespace).toMatch(/^project:origin-app-/);
      expect(memory.session_id).toBe('sess-origin-7');
    }
  });

  it('refuses, saying why, to file as global a session whose project it cannot tell, and files it with --global', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-unknown') };
    const gone = await runCli(['capture', h.session('elsewhere', ['You MUST use pnpm.'])], { env, cwd: h.root });
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(/cannot tell which project .* the session ran in \/work\/x, which does not exist on this machine\. Pass --cwd <project folder>, or --global/);
    const bare = join(h.root, 'no-cwd.jsonl');
    writeFileSync(bare, claudeTranscript('no-cwd', ['You MUST use pnpm.']).replaceAll('"cwd":"/work/x",', ''));
    const none = await runCli(['capture', bare], { env, cwd: h.root });
    expect(none.stderr).toMatch(/the transcript records no working directory/);
    expect(await listMemories(env)).toHaveLength(0);
    const global = await runCli(['capture', bare, '--global', '--json'], { env, cwd: h.root });
    expect(global.exitCode).toBe(0);
    expect((await listMemories(env)).every((m) => m.namespace === 'global')).toBe(true);
  });

  it('skips a transcript with almost nothing in it', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-short') };
    const file = join(h.root, 'tiny.jsonl');
    writeFileSync(file, '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    const result = await runCli(['capture', file, '--global', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'skipped' });
    expect(h.double.requestsTo('/api/chat').some((r) => JSON.stringify(r.body).includes('"hi"'))).toBe(false);
  });

  it('stores one low-importance session record when the model finds nothing durable', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-empty') };
    h.double.configure({ reply: JSON.stringify({ memories: [] }) });
    try {
      const result = await runCli(['capture', h.session('plain', ['Rename the variable please, it reads badly.'], { padding: 200 }), '--global', '--json'], { env });
      expect(result.exitCode).toBe(0);
      const memories = await listMemories(env);
      expect(memories).toHaveLength(1);
      expect(memories[0]!.type).toBe('session');
    } finally {
      h.double.reset();
    }
  });

  it('fails with one clear line for a missing transcript', async () => {
    const result = await runCli(['capture', join(h.root, 'nope.jsonl')], { env: { ...h.env, RECALL_HOME: join(h.root, 'capture-missing') } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^recall: .*nope\.jsonl/);
  });

  it('tells the user to set a model when none is configured', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'capture-no-model'), RECALL_OLLAMA_LLM_MODEL: '' };
    const result = await runCli(['capture', h.session('nomodel', ['You MUST use pnpm.']), '--global'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/RECALL_OLLAMA_LLM_MODEL/);
  });
});

describe('recall search', () => {
  it('finds a stored memory and reports id, content, type, namespace and score', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'search') };
    const project = h.project('searchable');
    await runCli(['capture', h.session('s', ['You MUST use pnpm, never npm.', 'Always deploy with blue green release.']), '--cwd', project], { env });
    const result = await runCli(['search', 'pnpm', '--json'], { env });
    expect(result.exitCode).toBe(0);
    const hits = JSON.parse(result.stdout) as JsonMemory[];
    expect(hits[0]).toMatchObject({ content: 'You MUST use pnpm, never npm.', type: 'golden_rule' });
    expect(hits[0]!.namespace).toMatch(/^project:searchable-/);
    expect(typeof hits[0]!.score).toBe('number');
    expect(hits[0]!.score!).toBeGreaterThan(hits[1]!.score!);

    const human = await runCli(['search', 'pnpm'], { env });
    expect(human.stdout).toMatch(/score\s+id\s+type\s+project/);
    expect(human.stdout).toContain('searchable');
  });

  it.each([
    [['search', '   '], /query is empty/],
    [['search', 'x'.repeat(100_000)], /limit is 2000/],
    [['search', 'pnpm', '--limit', '-3'], /--limit must be a positive whole number/],
  ])('refuses bad input %#', async (args, message) => {
    const result = await runCli(args, { env: { ...h.env, RECALL_HOME: join(h.root, 'search-bad') } });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(message);
  });
});
