/**
 * The real Qwen Code (`@qwen-code/qwen-code`, pinned in test/agents/clis) with recall installed (`--target qwen`),
 * against an OpenAI Chat Completions double (OPENAI_BASE_URL on 127.0.0.1, an API key of the double's) and the
 * Ollama double. Most tests drive `qwen -p` (headless, yolo); Qwen Code runs SessionEnd hooks only when an
 * interactive session ends, so the SessionEnd tests drive the terminal UI in a pseudo-terminal (`script`) and
 * leave it with `/quit`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsDouble, chatRequestText, chatToolNames, toolMessages, type ChatTurn } from '../support/chat-completions-double.js';
import { waitFor } from '../support/cli.js';
import { drainUntilListed, startAgentWorld, type AgentWorld } from './agent-world.js';
import { checkFeature, recordFeature, startAgentSummary } from './feature-summary.js';
import { installAgentClis } from './install-agent-clis.js';

const clis = installAgentClis();
const qwen = clis.qwen;
if (qwen === null) console.warn(`Qwen Code suite skipped: ${clis.problems.join('; ')}`);
/** util-linux `script`, the pseudo-terminal the interactive sessions run in. */
const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
if (qwen !== null && !hasScript) console.warn('Qwen Code SessionEnd tests skipped: no `script` (util-linux) to give the terminal UI a pseudo-terminal');

const AGENT = 'Qwen Code';
const GLOBAL_RULE = 'You must always sign commits with the team GPG key.';
const RULE = 'Always deploy the shop service with blue green releases';
const MODEL = 'qwen-double';
/** Characters `seq 100001 104000` prints. */
const SEQ_CHARS = Array.from({ length: 4_000 }, (_, i) => String(100_001 + i)).join('\n').length;
/** The user's Qwen Code settings before recall touches them (Qwen Code 0.24.4 adds `$version: 4` to a file without it at its first start). */
const USER_SETTINGS = { $version: 4, security: { auth: { selectedType: 'openai' } }, model: { name: MODEL }, ui: { theme: 'Default' } };

interface RunResult {
  sessionId: string;
  answer: string;
  turns: Array<{ body: Record<string, unknown> | null }>;
}

describe.skipIf(qwen === null)('Qwen Code with recall installed', () => {
  let w: AgentWorld;
  let double: ChatCompletionsDouble;
  let baseUrl = '';
  let settingsFile = '';
  const bin = qwen?.bin ?? '';
  const check = (feature: string, note: string, body: () => Promise<string | void>) => checkFeature(AGENT, feature, note, body);
  const modelEnv = (): Record<string, string> => ({ OPENAI_API_KEY: 'sk-test-double', OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: MODEL, QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' });

  /** One `qwen -p` run: the model answers each request with `script(body)`. */
  async function runQwen(prompt: string, script: (body: Record<string, unknown>) => ChatTurn, options: { cwd?: string; args?: string[]; env?: Record<string, string> } = {}): Promise<RunResult> {
    const from = double.requests.length;
    double.respond = script;
    const result = await w.run(bin, [...(options.args ?? []), '-p', prompt, '--output-format', 'json', '--yolo'], { cwd: options.cwd, env: { ...modelEnv(), ...options.env } });
    expect(result.exitCode, result.stderr + result.stdout).toBe(0);
    const messages = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as Array<Record<string, unknown>>;
    const last = messages.find((m) => m.type === 'result')!;
    const turns = double.requests.slice(from).filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions') && Array.isArray(r.body?.tools));
    return { sessionId: String(last.session_id), answer: String(last.result), turns };
  }

  /**
   * One interactive session in a pseudo-terminal (`qwen -i <prompt>`): waits until the session file holds the
   * model's answer, then leaves with `/quit`, which runs the SessionEnd hooks.
   */
  async function runQwenInteractive(prompt: string, answer: string, options: { args?: string[]; env?: Record<string, string> } = {}): Promise<void> {
    double.respond = () => ({ text: answer });
    const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
    const command = [bin, ...(options.args ?? []), '--yolo', '-i', prompt].map(quote).join(' ');
    const env = { ...w.env, ...modelEnv(), ...options.env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' };
    const child = execa('script', ['-qfec', command, '/dev/null'], { cwd: w.project, env, extendEnv: false, stdin: 'pipe', reject: false, timeout: 180_000 });
    const chats = join(w.agentHome, '.qwen', 'projects');
    const answered = (): boolean => sessionFiles(chats).some((file) => readFileSync(file, 'utf8').includes(JSON.stringify(answer).slice(1, -1)));
    let exited = false;
    void child.once('exit', () => {
      exited = true;
    });
    try {
      await waitFor(() => (answered() ? true : undefined), { timeoutMs: 120_000, everyMs: 250 });
      // The prompt takes input again once the turn has ended: until Qwen Code exits, clear the input line (Ctrl+U) and type /quit.
      await waitFor(
        () => {
          if (exited) return true;
          child.stdin?.write('\u0015/quit\r');
          return undefined;
        },
        { timeoutMs: 60_000, everyMs: 3_000 },
      );
      const result = await child;
      expect(result.exitCode, String(result.stdout).slice(-2_000)).toBe(0);
    } finally {
      child.kill();
    }
  }

  const callOnce = (name: string, args: Record<string, unknown>) => (body: Record<string, unknown>): ChatTurn =>
    toolMessages(body).length === 0 ? { call: { name, arguments: args } } : { text: 'Finished.' };

  beforeAll(async () => {
    startAgentSummary(AGENT, qwen!.version);
    w = await startAgentWorld();
    double = new ChatCompletionsDouble();
    baseUrl = await double.start();
    mkdirSync(join(w.agentHome, '.qwen'), { recursive: true });
    settingsFile = join(w.agentHome, '.qwen', 'settings.json');
    writeFileSync(settingsFile, `${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
  });
  afterAll(async () => {
    await double?.close();
    await w?.close();
  });

  it('accepts `recall install --target qwen` and puts the SessionStart context into the first request', async () => {
    await check('install + SessionStart context', 'hooks and the MCP server in ~/.qwen/settings.json; additionalContext reaches the first request', async () => {
      const install = await w.recall(['install', '--target', 'qwen']);
      expect(install.exitCode, install.stderr).toBe(0);
      const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      expect(settings.security).toEqual(USER_SETTINGS.security);
      expect(Object.keys(settings.hooks as object).sort()).toEqual(['SessionEnd', 'SessionStart', 'Stop']);
      expect(Object.keys(settings.mcpServers as object)).toEqual(['recall']);
      expect((settings.mcpServers as Record<string, Record<string, unknown>>).recall!.alwaysLoadTools).toBe(true);
      const added = await w.recall(['add', '--here', '--type', 'golden_rule', RULE]);
      expect(added.exitCode, added.stderr).toBe(0);
      const { turns } = await runQwen('What should I know about this project?', () => ({ text: 'Noted.' }));
      expect(chatRequestText(turns[0]!.body)).toContain('blue green releases');
    });
  });

  it('brings a global memory into the first request of a project with no memories of its own', async () => {
    await check('global memories in a new project', '`recall add` without --here reaches every project\'s SessionStart context', async () => {
      const added = await w.recall(['add', GLOBAL_RULE], { cwd: w.h.root });
      expect(added.exitCode, added.stderr).toBe(0);
      const fresh = w.h.project('fresh-project');
      const { turns } = await runQwen('Hello.', () => ({ text: 'Hello.' }), { cwd: fresh });
      expect(chatRequestText(turns[0]!.body)).toContain('sign commits with the team GPG key');
    });
  });

  it('runs a scripted run_shell_command call and sends its output in the next request', async () => {
    await check('tool call output', "Qwen Code's run_shell_command runs; its output is the next request's tool message", async () => {
      const { turns } = await runQwen('List the numbers.', callOnce('run_shell_command', { command: 'seq 1 5 | paste -sd+' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(toolMessages(turns[1]!.body).join('\n')).toContain('1+2+3+4+5');
    });
  });

  it.skipIf(!hasScript)("queues the session's file when an interactive session ends and the worker stores what the model answered", async () => {
    await check('capture at SessionEnd', 'SessionEnd (run when an interactive session ends, not after `qwen -p`) queues the session file; `recall drain` stores the Ollama answer', async () => {
      await runQwenInteractive('You must always use tabs for indentation in this repository.', 'Understood, tabs it is.');
      const listed = await drainUntilListed(w, 'tabs for indentation');
      expect(listed).toContain('tabs');
    });
  });

  it.skipIf(!hasScript)('captures a `qwen -p` session, which ends without SessionEnd, at a later SessionStart, once, and only its new part after that', async () => {
    await check('capture without SessionEnd', 'the Stop hook marks the session open; a session that ended without SessionEnd (every `qwen -p`, a killed one) is queued at a later SessionStart once idle 15 minutes, and a later capture of it reads only the bytes no capture covered', async () => {
      const { sessionId } = await runQwen('You must never force push to the release branch of this repository.', () => ({ text: 'Understood: no force pushes to the release branch, ever.' }));
      const marker = join(w.h.home, 'sessions', `open-${sessionId}.json`);
      expect(existsSync(marker)).toBe(true);
      // Fifteen idle minutes pass.
      const open = JSON.parse(readFileSync(marker, 'utf8')) as { transcriptPath: string; stoppedAt: number };
      const then = (Date.now() - 16 * 60_000) / 1000;
      utimesSync(open.transcriptPath, then, then);
      writeFileSync(marker, JSON.stringify({ ...open, stoppedAt: then * 1000 }));
      await runQwen('Hello again.', () => ({ text: 'Hello.' }));
      expect(existsSync(marker)).toBe(false);
      const listed = await drainUntilListed(w, 'force push');
      expect(listed).toContain('release branch');
      // The same session resumed and ended: its SessionEnd captures only what came after the idle capture.
      const queued = spooled(w.h.home);
      await runQwenInteractive('Thanks.', 'You are welcome.', { args: ['--resume', sessionId], env: { RECALL_HOOK_SPAWN: 'false' } });
      const jobs = spooled(w.h.home).filter((job) => !queued.some((q) => q.id === job.id) && job.sessionId === sessionId);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.fromByte).toBeGreaterThan(0);
      return `the resumed session's SessionEnd queued bytes ${jobs[0]!.fromByte}-${jobs[0]!.toByte} only`;
    });
  });

  it("returns recall's answer to the model's call of an MCP tool", async () => {
    await check('MCP tools', "recall's memory_search is offered to the model and answers from the store", async () => {
      let name = '';
      const script = (body: Record<string, unknown>): ChatTurn => {
        if (toolMessages(body).length > 0) return { text: 'Found it.' };
        name = chatToolNames(body).find((tool) => /memory_search/.test(tool)) ?? '';
        return { call: { name, arguments: { query: 'deploy releases' } } };
      };
      const { turns } = await runQwen('How do we deploy?', script);
      expect(name).not.toBe('');
      expect(toolMessages(turns.at(-1)!.body).join('\n')).toContain('blue green releases');
      return `offered as ${name}`;
    });
  });

  it('compresses a large shell output before it reaches the next request when Endless Mode is on', async () => {
    await check('Endless Mode (live)', 'PostToolUse answers {"continue":false,"stopReason":<observation>}; Qwen Code sends the stopReason to the model in place of the output, as the tool\'s error, and goes on with the turn', async () => {
      const install = await w.recall(['install', '--target', 'qwen', '--endless']);
      expect(install.exitCode, install.stderr).toBe(0);
      const { answer, turns } = await runQwen('Count to four thousand.', callOnce('run_shell_command', { command: 'seq 100001 104000' }));
      const result = toolMessages(turns[1]!.body).join('\n');
      expect(result).not.toContain('103000');
      expect(result.length).toBeLessThan(4_000);
      expect(result).toContain('seq 100001 104000');
      expect(answer).toBe('Finished.');
      return `a ${SEQ_CHARS}-character output reached the model as ${result.length} characters`;
    });
    const note = '`recall endless fork` writes Claude Code session files only; Qwen Code sessions (`qwen --resume <id>`) are not forked yet';
    recordFeature(AGENT, 'Endless fork + resume', { status: 'not built', note });
    recordFeature(AGENT, 'Endless fork of a compacted session', { status: 'not built', note });
  });

  it("keeps working after `recall uninstall --target qwen`, with the user's settings as they were", async () => {
    await check('uninstall', "hooks and MCP entry removed; the user's settings stay; the CLI still answers", async () => {
      const uninstall = await w.recall(['uninstall', '--target', 'qwen', '--endless']);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      const all = await w.recall(['uninstall', '--target', 'qwen']);
      expect(all.exitCode, all.stderr).toBe(0);
      expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(USER_SETTINGS);
      const { answer, turns } = await runQwen('Anything?', () => ({ text: 'Still here.' }));
      expect(answer).toBe('Still here.');
      expect(chatRequestText(turns[0]!.body)).not.toContain('blue green releases');
    });
  });
});

/** The capture jobs waiting in the spool. */
function spooled(recallHome: string): { id: string; sessionId: string | null; fromByte?: number; toByte?: number | null }[] {
  const dir = join(recallHome, 'spool', 'pending');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { id: string; sessionId: string | null; fromByte?: number; toByte?: number | null });
}

/** Every session file under ~/.qwen/projects/<project>/chats. */
function sessionFiles(projects: string): string[] {
  try {
    return readdirSync(projects).flatMap((project) => {
      const chats = join(projects, project, 'chats');
      return existsSync(chats) ? readdirSync(chats).filter((name) => name.endsWith('.jsonl')).map((name) => join(chats, name)) : [];
    });
  } catch {
    return [];
  }
}
