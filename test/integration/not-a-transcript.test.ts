/**
 * What the commands that take a session file say about a file that is not one: before any model, project or
 * store is asked for, and in words for what the file is (a README, an empty file, a binary file, one JSON
 * document, a folder, a missing path). A real session of each agent is never called "not a transcript".
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

const AGENTS = 'Claude Code, Factory droid, Codex CLI, Gemini CLI, GitHub Copilot CLI and Qwen Code';
const FIXTURES = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
/** Real Claude Code sessions beside the project (../shared/fixtures), when this checkout has them. */
const SHARED = fileURLToPath(new URL('../../../shared/fixtures/transcripts/', import.meta.url));

let h: Harness;
let files: Record<'readme' | 'empty' | 'binary' | 'document' | 'folder' | 'missing' | 'objects' | 'started', string>;

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  const dir = join(h.root, 'files');
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  files = {
    readme: join(dir, 'README.md'),
    empty: join(dir, 'empty.jsonl'),
    binary: join(dir, 'image.png'),
    document: join(dir, 'session.json'),
    folder: join(dir, 'sessions'),
    missing: join(dir, 'gone.jsonl'),
    objects: join(dir, 'records.jsonl'),
    started: join(dir, 'started.jsonl'),
  };
  // About 60 KB of markdown, as the README of a project is.
  writeFileSync(files.readme, `# A project\n\n${'Some prose about the project, long enough to read. '.repeat(1200)}\n\n## Usage\n\nRun it.\n`);
  writeFileSync(files.empty, '\n\n');
  writeFileSync(files.binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
  writeFileSync(files.document, JSON.stringify({ messages: [{ role: 'user', content: 'You MUST use pnpm, never npm. '.repeat(10) }] }, null, 2));
  // A session file without a message: Claude Code's hook progress and a Codex session_meta.
  writeFileSync(
    files.started,
    `${JSON.stringify({ type: 'progress', data: { type: 'hook_progress', hookEvent: 'SessionStart' }, sessionId: 's1', cwd: '/work/x', uuid: 'p0' })}\n` +
      `${JSON.stringify({ timestamp: '2026-11-27T15:40:13.014Z', type: 'session_meta', payload: { id: 'c1', cwd: '/work/x' } })}\n`,
  );
  writeFileSync(files.objects, `${JSON.stringify({ id: 1, name: 'a row' })}\n${JSON.stringify({ id: 2, name: 'another row' })}\n`);
});

afterAll(async () => {
  await h.close();
});

/** A clean RECALL_HOME with no model configured and the Ollama address of nothing. */
function bareEnv(name: string): NodeJS.ProcessEnv {
  return baseEnv({ RECALL_HOME: join(h.root, name), RECALL_EMBEDDER: 'hash', OLLAMA_HOST: 'http://127.0.0.1:9', LANCEDB_LOG: 'error' });
}

describe('recall capture of a README', () => {
  it('says the file is not a transcript first, with no model configured and no project to file it under', async () => {
    for (const env of [bareEnv('bare-readme'), { ...h.env, RECALL_HOME: join(h.root, 'model-readme') }]) {
      const result = await runCli(['capture', files.readme], { env });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(`recall: ${files.readme} is not a transcript: none of its 4 lines is JSON; recall reads the JSONL session files of ${AGENTS}\n`);
    }
    // Nothing was asked of the model.
    expect(h.double.requestsTo('/api/chat')).toHaveLength(0);
  });
});

describe('a file that is not a session', () => {
  const expected = (): Array<[keyof typeof files, RegExp]> => [
    ['readme', /is not a transcript: none of its 4 lines is JSON; recall reads the JSONL session files of Claude Code, Factory droid, Codex CLI, Gemini CLI, GitHub Copilot CLI and Qwen Code$/],
    ['objects', /is not a transcript: none of its 2 lines is a session event \(JSON of another kind\)/],
    ['empty', /is empty: a session file holds one JSON event per line/],
    ['started', /holds no messages: its 2 lines are session records \(a start, settings, progress\), without a user or assistant message to read$/],
    ['binary', /is a binary file \(it holds NUL bytes\)/],
    ['document', /is one JSON document over \d+ lines, not JSON Lines/],
    ['folder', /is a folder: give one session file in it/],
    ['missing', /transcript not found: /],
  ];

  it('is named for what it is by capture, prompt and eval, before a model or a project is asked for', async () => {
    const env = bareEnv('bare-kinds');
    for (const [kind, words] of expected()) {
      for (const args of [['capture', files[kind]], ['prompt', files[kind]], ['eval', '--model', 'llama3.2:3b', files[kind]]]) {
        const result = await runCli(args, { env });
        expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(1);
        const last = result.stderr.trimEnd().split('\n').at(-1) ?? '';
        expect(last, args.join(' ')).toMatch(words);
        if (kind !== 'readme' && kind !== 'objects') expect(last, args.join(' ')).not.toContain('not a transcript');
        expect(result.stdout, args.join(' ')).toBe('');
      }
    }
  });

  it('is refused by endless backfill with its kind before it asks for a model', async () => {
    const env = bareEnv('bare-backfill');
    for (const [kind, words] of [
      ['readme', /is not a Claude Code session: line 1 is not a JSON object/],
      ['objects', /holds no Claude Code messages/],
      ['empty', /is empty: no session lines/],
      ['folder', /is a folder: give one session file in it/],
    ] as const) {
      const result = await runCli(['endless', 'backfill', files[kind]], { env });
      expect(result.exitCode, kind).toBe(1);
      expect(result.stderr, kind).toMatch(words);
    }
  });

  it('is refused by endless fork with its kind, and nothing is written', async () => {
    const env = bareEnv('bare-fork');
    const cases: Array<[keyof typeof files, RegExp]> = [
      ['readme', /is not a Claude Code session: line 1 is not a JSON object; nothing was written/],
      ['objects', /holds no Claude Code messages: none of its 2 lines is a user or assistant message with a sessionId/],
      ['empty', /is empty: no session lines to compress; nothing was written/],
      ['binary', /is a binary file \(it holds NUL bytes\), not a session; nothing was written/],
      ['folder', /is a folder: give one session file in it/],
      ['missing', /transcript not found: /],
    ];
    const before = readdirSync(join(h.root, 'files')).sort();
    for (const [kind, words] of cases) {
      const result = await runCli(['endless', 'fork', files[kind]], { env });
      expect(result.exitCode, `${kind}: ${result.stdout}`).toBe(1);
      expect(result.stderr, kind).toMatch(words);
    }
    expect(readdirSync(join(h.root, 'files')).sort()).toEqual(before);
  });

  it('is skipped by eval among real sessions, which are still compared', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'eval-mixed-files') };
    const session = h.session('eval-real', ['You MUST use pnpm, never npm.']);
    const result = await runCli(['eval', '--model', 'llama3.2:3b', files.readme, session, files.empty, '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { models: Array<{ sessions: number; memories: number }>; skipped: Array<{ session: string; why: string }> };
    expect(report.models[0]).toMatchObject({ sessions: 1, memories: 1 });
    expect(report.skipped.map((s) => s.session)).toEqual([files.readme, files.empty]);
    expect(report.skipped[0]?.why).toMatch(/^is not a transcript/);
    expect(report.skipped[1]?.why).toMatch(/^is empty/);
  });
});

describe('a file name from outside', () => {
  it('reaches the terminal with its control and bidirectional characters made visible', async () => {
    const name = join(h.root, 'files', 'notes\u001b[2J\u202egnp.md');
    writeFileSync(name, '# Notes\n\nNothing here is a session.\n');
    const result = await runCli(['capture', name], { env: bareEnv('bare-name') });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stderr).not.toContain('\u202e');
    expect(result.stderr).toContain('notes?[2J\\u{202E}gnp.md is not a transcript');
  });
});

describe('a real session of each agent', () => {
  const sessions = readdirSync(FIXTURES).filter((name) => name.endsWith('.jsonl'));

  it('is read by prompt and capture, never called not a transcript', async () => {
    expect(sessions.length).toBeGreaterThanOrEqual(7);
    const env = { ...h.env, RECALL_HOME: join(h.root, 'agents') };
    for (const name of sessions) {
      const file = join(FIXTURES, name);
      const prompt = await runCli(['prompt', file, '--json'], { env });
      expect(prompt.exitCode, `${name}: ${prompt.stderr}`).toBe(0);
      const capture = await runCli(['capture', file, '--global', '--json'], { env });
      expect(capture.stderr, name).not.toContain('not a transcript');
      expect(capture.exitCode, `${name}: ${capture.stderr}`).toBe(0);
      const outcome = JSON.parse(capture.stdout) as { status: string; reason?: string };
      expect(['stored', 'skipped']).toContain(outcome.status);
      expect(outcome.reason, name).not.toBe('not-transcript');
    }
  });

  it('lists where each agent keeps its session files in --help', async () => {
    for (const command of ['capture', 'prompt', 'eval']) {
      const help = await runCli([command, '--help'], { env: h.env });
      for (const agent of ['Claude Code:', 'Factory droid:', 'Codex CLI:', 'Gemini CLI:', 'GitHub Copilot CLI:', 'Qwen Code:']) expect(help.stdout, command).toContain(agent);
    }
  });
});

describe.runIf(existsSync(SHARED))('the real Claude Code sessions in ../shared/fixtures', () => {
  it('are read by prompt, or said to hold no messages, never called not a transcript', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'shared') };
    const sessions = readdirSync(SHARED, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl'));
    expect(sessions.length).toBeGreaterThan(5);
    for (const name of sessions) {
      const result = await runCli(['prompt', join(SHARED, name), '--stats'], { env });
      expect(result.stderr, name).not.toContain('not a transcript');
      if (result.exitCode !== 0) expect(result.stderr, name).toMatch(/holds no messages: /);
    }
  });
});
