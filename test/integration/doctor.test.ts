import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

interface Check {
  id: string;
  status: 'ok' | 'info' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A world of its own: state dir, user home (for ~/.claude) and project folder. */
function world(name: string, extra: Record<string, string> = {}): { env: NodeJS.ProcessEnv; home: string; cwd: string } {
  const home = join(h.root, name, 'user');
  mkdirSync(home, { recursive: true });
  return { env: { ...h.env, RECALL_HOME: join(h.root, name, 'state'), HOME: home, ...extra }, home, cwd: h.project(`${name}-project`) };
}

async function doctorJson(w: ReturnType<typeof world>): Promise<{ exitCode: number; ok: boolean; checks: Map<string, Check> }> {
  const result = await runCli(['doctor', '--json'], { env: w.env, cwd: w.cwd });
  const parsed = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  return { exitCode: result.exitCode, ok: parsed.ok, checks: new Map(parsed.checks.map((c) => [c.id, c])) };
}

describe('recall doctor', () => {
  it('passes with Ollama up, the model pulled and a local embedder; hooks of agents not on the machine are information', async () => {
    // No agent's folder in this HOME, and no agent's program on this PATH.
    const w = world('healthy', { PATH: dirname(process.execPath) });
    const result = await runCli(['doctor'], { env: w.env, cwd: w.cwd });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => /^(warn|FAIL) /.test(line))).toEqual([]);
    const info = lines.filter((line) => /^info /.test(line));
    expect(info).toHaveLength(6);
    expect(info.every((line) => /^info +Hooks .*not installed: the agent is not on this machine/.test(line))).toBe(true);
    expect(result.stdout).toMatch(/^All checks passed\.$/m);
    expect(result.stdout).toMatch(/^ok +Embedder +transformers:.* embedded a test sentence in \d+ ms/m);

    const json = await doctorJson(w);
    expect(json.exitCode).toBe(0);
    expect(json.ok).toBe(true);
    expect([...json.checks.values()].filter((c) => c.status !== 'ok').map((c) => `${c.id} ${c.status}`)).toEqual(['hooks-claude info', 'hooks-factory info', 'hooks-codex info', 'hooks-gemini info', 'hooks-copilot info', 'hooks-qwen info']);
  });

  it('warns, with recall install as the fix, about an agent on the machine without recall hooks', async () => {
    const w = world('agent-present', { PATH: dirname(process.execPath) });
    mkdirSync(join(w.home, '.gemini'), { recursive: true });
    const json = await doctorJson(w);
    expect(json.checks.get('hooks-gemini')).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^not installed: no recall session-end hook/), fix: 'recall install --target gemini' });
    expect(json.checks.get('hooks-claude')?.status).toBe('info');
  });

  it('fails when Ollama is down and says how to start it, still running the other checks', async () => {
    const w = world('ollama-down', { OLLAMA_HOST: '127.0.0.1:9' });
    const result = await runCli(['doctor'], { env: w.env, cwd: w.cwd });
    expect(result.exitCode).toBe(1);
    const ollamaLine = result.stdout.split('\n').find((line) => /^FAIL Ollama/.test(line));
    expect(ollamaLine).toMatch(/cannot reach Ollama at http:\/\/127\.0\.0\.1:9/);
    // Piped, a check and its fix are one line: grep FAIL shows what to do.
    expect(ollamaLine).toMatch(/; fix: start it with `ollama serve`/);
    expect(result.stdout.split('\n').filter((line) => /^ +fix:/.test(line))).toEqual([]);
    expect(result.stdout).toMatch(/^ok +Embedder/m);
  });

  it('prints the exact ollama pull command when the model is missing', async () => {
    const w = world('model-missing', { RECALL_OLLAMA_LLM_MODEL: 'qwen2.5:0.5b' });
    const json = await doctorJson(w);
    expect(json.exitCode).toBe(1);
    expect(json.checks.get('llm-model')).toMatchObject({ status: 'fail', fix: 'ollama pull qwen2.5:0.5b' });
    const text = await runCli(['doctor'], { env: w.env, cwd: w.cwd });
    expect(text.stdout).toMatch(/fix: +ollama pull qwen2\.5:0\.5b\n/);
  });

  it('fails when no extraction model is configured, with the export fix', async () => {
    const w = world('no-model', { RECALL_OLLAMA_LLM_MODEL: '' });
    const json = await doctorJson(w);
    expect(json.checks.get('llm-model')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/^export RECALL_OLLAMA_LLM_MODEL=/) });
  });

  it('names the bad key of a broken config.json and still checks everything else', async () => {
    const w = world('broken-config');
    mkdirSync(w.env.RECALL_HOME!, { recursive: true });
    writeFileSync(join(w.env.RECALL_HOME!, 'config.json'), JSON.stringify({ dedupe: { threshold: 'high' } }));
    const json = await doctorJson(w);
    expect(json.exitCode).toBe(1);
    expect(json.checks.get('config')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/dedupe\.threshold/) });
    expect(json.checks.get('ollama')?.status).toBe('ok');
    expect(json.checks.get('embedder')?.status).toBe('ok');
    expect(json.checks.size).toBe(14);
  });

  it('fails a missing embedding model with downloads disabled, with the fix from the error', async () => {
    const w = world('no-embedder', { RECALL_EMBEDDER: `transformers:${join(h.root, 'no-such-model')}` });
    const json = await doctorJson(w);
    expect(json.checks.get('embedder')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/put the model files in .*no-such-model/) });
  });

  it('sees installed hooks and fails a settings file that is not JSON', async () => {
    const w = world('hooks');
    mkdirSync(join(w.home, '.claude'), { recursive: true });
    mkdirSync(join(w.home, '.factory'), { recursive: true });
    const command = `"${process.execPath}" "/opt/recall/dist/cli/main.js" hook session-end`;
    writeFileSync(join(w.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command }] }] } }));
    writeFileSync(join(w.home, '.factory', 'settings.json'), '{ "hooks": ');
    const json = await doctorJson(w);
    expect(json.checks.get('hooks-claude')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/session-end in .*\.claude\/settings\.json/) });
    expect(json.checks.get('hooks-factory')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/not valid JSON/) });
    expect(json.exitCode).toBe(1);
  });

  it('checks the database embedder and offers recall reindex when the config changed', async () => {
    const w = world('store');
    const transcript = h.session('doctor-store', ['You MUST use pnpm, never npm.']);
    const capture = await runCli(['capture', transcript, '--cwd', w.cwd, '--json'], { env: w.env });
    expect(capture.exitCode).toBe(0);

    const same = await doctorJson(w);
    expect(same.checks.get('store')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^1 memories, embedder .* matches the config/) });

    const changed = await doctorJson({ ...w, env: { ...w.env, RECALL_EMBEDDER: 'hash' } });
    expect(changed.checks.get('store')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/^recall reindex/) });
  });

  it('warns about failed captures with recall retry as the fix', async () => {
    const w = world('queue');
    const failed = join(w.env.RECALL_HOME!, 'spool', 'failed');
    mkdirSync(failed, { recursive: true });
    writeFileSync(join(failed, '01JOB.json'), '{}');
    const json = await doctorJson(w);
    expect(json.checks.get('queue')).toMatchObject({ status: 'warn', fix: expect.stringMatching(/^recall retry/) });
    expect(json.exitCode).toBe(0);
  });
});
