import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const line = (value: unknown): string => JSON.stringify(value);
const user = (content: unknown) => line({ type: 'user', cwd: '/work/x', sessionId: 's1', message: { role: 'user', content } });
const say = (text: string) => line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });

interface PromptJson {
  system: string;
  prompt: string;
  numCtx: number;
  composition: { promptChars: number; parts: Array<{ part: string; chars: number; share: number }>; conclusion: { keptShare: number } | null; typedMessagesShown: number };
}

describe('recall prompt', () => {
  const session = (): string => {
    const file = join(h.root, 'prompt-session.jsonl');
    const log = Array.from({ length: 8 }, (_, i) => `2026-01-01T10:00:0${i}Z ERROR step ${i}: connection refused on port 6380`).join('\n');
    writeFileSync(
      file,
      [
        user('Set up the cache. You MUST use Redis 7.'),
        say('Added the Redis client.'),
        user(`CI is red:\n\n${log}\n\nno, that broke the build`),
        user('<bash-input>git status</bash-input>'),
        user('<bash-stdout>On branch main\nnothing to commit</bash-stdout><bash-stderr></bash-stderr>'),
        say('Fixed the port: the cache listens on 6379 in CI.'),
      ].join('\n') + '\n',
    );
    return file;
  };

  it('prints exactly what the model would receive, with each part and its share, as JSON', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'prompt-json') };
    const result = await runCli(['prompt', session(), '--json'], { env });
    expect(result.exitCode).toBe(0);
    const out = JSON.parse(result.stdout) as PromptJson;
    expect(out.system).toMatch(/^You read the record of a coding session/);
    expect(out.prompt).toContain('<transcript>\nUser: Set up the cache. You MUST use Redis 7.');
    expect(out.prompt).toContain('User (corrects the assistant): CI is red:');
    expect(out.prompt).toContain("[pasted log #1, 8 lines");
    expect(out.prompt).toContain('[the user ran in the shell: git status]');
    expect(out.prompt).toContain('[shell output] On branch main');
    expect(out.prompt).not.toMatch(/User[^\n]*: On branch main/);
    const parts = Object.fromEntries(out.composition.parts.map((p) => [p.part, p]));
    expect(out.composition.parts.reduce((n, p) => n + p.chars, 0)).toBe(out.composition.promptChars);
    expect(out.composition.promptChars).toBe(out.system.length + out.prompt.length);
    expect(parts['labels']!.chars).toBeGreaterThan(0);
    expect(parts['instructions']!.share).toBeGreaterThan(0.3);
    expect(out.composition.conclusion?.keptShare).toBe(1);
    expect(out.numCtx).toBeGreaterThanOrEqual(2048);
  });

  it('prints the prompt and a composition table for a person, and calls no model', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'prompt-human') };
    const before = h.double.requestsTo('/api/chat').length;
    const result = await runCli(['prompt', session()], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('=== system ===');
    expect(result.stdout).toContain('=== prompt ===');
    expect(result.stdout).toMatch(/=== composition ===\npart\s+chars\s+share/);
    expect(result.stdout).toMatch(/the assistant's last words: \d+ of \d+ chars kept \(100\.0%\)/);
    expect(h.double.requestsTo('/api/chat').length).toBe(before);
  });
});
