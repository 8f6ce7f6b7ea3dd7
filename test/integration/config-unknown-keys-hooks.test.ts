/**
 * Hooks say in their log (never on stdout or stderr) that config.json holds keys recall ignores; the
 * commands that skip the command-line program (`endless fork`) still say it on stderr.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { baseEnv, runCli, runHook } from '../support/cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/endless/session.jsonl', import.meta.url));

let root: string;
let n = 0;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'recall-hook-keys-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function homeWithConfig(config: unknown): { home: string; file: string; env: NodeJS.ProcessEnv } {
  const home = join(root, `home-${(n += 1)}`);
  const file = join(home, 'config.json');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(config));
  return { home, file, env: baseEnv({ RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' }) };
}

const SESSION_END = { session_id: 's', transcript_path: '/tmp/none.jsonl', cwd: '/tmp', hook_event_name: 'SessionEnd', reason: 'exit' };

function logOf(home: string): string {
  try {
    return readFileSync(join(home, 'recall.log'), 'utf8');
  } catch {
    return '';
  }
}

describe('hooks and unknown config keys', () => {
  it('SessionEnd logs the unknown key with the closest known one and answers as usual', async () => {
    const { home, file, env } = homeWithConfig({ ollama: { model: 'qwen3:4b' }, dedupe: { threshold: 0.9 } });
    const result = await runHook('session-end', SESSION_END, { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({});
    expect(logOf(home)).toContain(`warning: ${file} has keys recall ignores: ollama.model (did you mean ollama.llmModel?)`);
  });

  it('PostToolUse with Endless Mode on logs it among its settings problems', async () => {
    const { home, env } = homeWithConfig({ endless: { enabled: true, minChar: 10 } });
    const payload = { session_id: 's', transcript_path: join(root, 'none.jsonl'), cwd: root, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1', tool_response: { stdout: 'a' } };
    const result = await runHook('post-tool-use', payload, { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(logOf(home)).toMatch(/keys recall ignores: endless\.minChar \(did you mean endless\.minChars\?\)/);
  });

  it('says nothing when every key is known', async () => {
    const { home, env } = homeWithConfig({ dedupe: { threshold: 0.9 } });
    expect((await runHook('session-end', SESSION_END, { env })).exitCode).toBe(0);
    expect(logOf(home)).toContain('queued capture');
    expect(logOf(home)).not.toContain('keys recall ignores');
  });

  it('recall endless fork warns on stderr, as every command does, and still forks', async () => {
    const { home, file, env } = homeWithConfig({ endless: { keepRecnt: 1 } });
    const session = join(home, '11111111-2222-4333-8444-555555555555.jsonl');
    copyFileSync(FIXTURE, session);
    const result = await runCli(['endless', 'fork', session, '--no-model', '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe(`warning: ${file} has keys recall ignores: endless.keepRecnt (did you mean endless.keepRecent?)\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({ newSessionId: expect.any(String) });
  });
});
