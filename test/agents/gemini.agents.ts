/**
 * The real Gemini CLI (`@google/gemini-cli`, pinned in test/agents/clis) with recall installed (`--target gemini`),
 * against a Gemini API double (GOOGLE_GEMINI_BASE_URL on 127.0.0.1, an API key of the double's) and the Ollama
 * double. Each test drives `gemini -p` (headless, `--skip-trust`, yolo) and reads what reached the model.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiDouble, declaredFunctions, functionResponses, geminiRequestText, type GeminiTurn } from '../support/gemini-double.js';
import { drainUntilListed, startAgentWorld, type AgentWorld } from './agent-world.js';
import { checkFeature, recordFeature, startAgentSummary } from './feature-summary.js';
import { installAgentClis } from './install-agent-clis.js';

const clis = installAgentClis();
const gemini = clis.gemini;
if (gemini === null) console.warn(`Gemini CLI suite skipped: ${clis.problems.join('; ')}`);

const AGENT = 'Gemini CLI';
const GLOBAL_RULE = 'You must always sign commits with the team GPG key.';
const RULE = 'Always deploy the shop service with blue green releases';
/** Characters `seq 100001 104000` prints. */
const SEQ_CHARS = Array.from({ length: 4_000 }, (_, i) => String(100_001 + i)).join('\n').length;
/** The user's Gemini settings before recall touches them. */
const USER_SETTINGS = { security: { auth: { selectedType: 'gemini-api-key' } }, ui: { theme: 'Default' } };

describe.skipIf(gemini === null)('Gemini CLI with recall installed', () => {
  let w: AgentWorld;
  let double: GeminiDouble;
  let baseUrl = '';
  let settingsFile = '';
  const bin = gemini?.bin ?? '';
  const check = (feature: string, note: string, body: () => Promise<string | void>) => checkFeature(AGENT, feature, note, body);

  /** One `gemini -p` run: the model answers each main request with `script(body)`. */
  async function runGemini(prompt: string, script: (body: Record<string, unknown>) => GeminiTurn, options: { cwd?: string } = {}) {
    const from = double.requests.length;
    double.respond = script;
    const result = await w.run(bin, ['-p', prompt, '--output-format', 'json', '--yolo', '--skip-trust', '-m', 'gemini-2.5-flash'], {
      cwd: options.cwd,
      env: { GEMINI_API_KEY: 'test-double-key', GOOGLE_GEMINI_BASE_URL: baseUrl, NO_BROWSER: 'true' },
    });
    expect(result.exitCode, result.stderr + result.stdout).toBe(0);
    const answer = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { session_id: string; response: string };
    const turns = double.requests.slice(from).filter((r) => r.method === 'POST' && /:(stream)?[gG]enerateContent$/.test(r.path) && Array.isArray(r.body?.tools) && (r.body.tools as unknown[]).length > 0);
    return { answer, turns };
  }

  const callOnce = (name: string, args: Record<string, unknown>) => (body: Record<string, unknown>): GeminiTurn =>
    functionResponses(body).length === 0 ? { call: { name, args } } : { text: 'Finished.' };

  beforeAll(async () => {
    startAgentSummary(AGENT, gemini!.version);
    w = await startAgentWorld();
    double = new GeminiDouble();
    baseUrl = await double.start();
    mkdirSync(join(w.agentHome, '.gemini'), { recursive: true });
    settingsFile = join(w.agentHome, '.gemini', 'settings.json');
    writeFileSync(settingsFile, `${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
  });
  afterAll(async () => {
    await double?.close();
    await w?.close();
  });

  it('accepts `recall install --target gemini` and puts the SessionStart context into the first request', async () => {
    await check('install + SessionStart context', 'hooks and the MCP server in ~/.gemini/settings.json; additionalContext reaches the first request (Gemini puts it before the prompt in <hook_context>)', async () => {
      const install = await w.recall(['install', '--target', 'gemini']);
      expect(install.exitCode, install.stderr).toBe(0);
      const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      expect(settings.security).toEqual(USER_SETTINGS.security);
      expect(Object.keys(settings.hooks as object).sort()).toEqual(['SessionEnd', 'SessionStart']);
      expect(Object.keys(settings.mcpServers as object)).toEqual(['recall']);
      const added = await w.recall(['add', '--here', '--type', 'golden_rule', RULE]);
      expect(added.exitCode, added.stderr).toBe(0);
      const { turns } = await runGemini('What should I know about this project?', () => ({ text: 'Noted.' }));
      expect(geminiRequestText(turns[0]!.body)).toContain('blue green releases');
    });
  });

  it('brings a global memory into the first request of a project with no memories of its own', async () => {
    await check('global memories in a new project', '`recall add` without --here reaches every project\'s SessionStart context', async () => {
      const added = await w.recall(['add', GLOBAL_RULE], { cwd: w.h.root });
      expect(added.exitCode, added.stderr).toBe(0);
      const fresh = w.h.project('fresh-project');
      const { turns } = await runGemini('Hello.', () => ({ text: 'Hello.' }), { cwd: fresh });
      expect(geminiRequestText(turns[0]!.body)).toContain('sign commits with the team GPG key');
    });
  });

  it('runs a scripted run_shell_command call and sends its output in the next request', async () => {
    await check('tool call output', "Gemini's run_shell_command runs; its output is the next request's functionResponse", async () => {
      const { turns } = await runGemini('List the numbers.', callOnce('run_shell_command', { command: 'seq 1 5 | paste -sd+' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(functionResponses(turns[1]!.body).join('\n')).toContain('1+2+3+4+5');
    });
  });

  it("queues the session's file at SessionEnd and the worker stores what the model answered", async () => {
    await check('capture at SessionEnd', 'SessionEnd (which Gemini does not wait for) queues the session file; `recall drain` stores the Ollama answer', async () => {
      await runGemini('You must always use tabs for indentation in this repository.', () => ({ text: 'Understood, tabs it is.' }));
      const listed = await drainUntilListed(w, 'tabs for indentation');
      expect(listed).toContain('tabs');
    });
  });

  it("returns recall's answer to the model's call of an MCP tool", async () => {
    await check('MCP tools', "recall's memory_search is offered to the model and answers from the store", async () => {
      let name = '';
      const script = (body: Record<string, unknown>): GeminiTurn => {
        if (functionResponses(body).length > 0) return { text: 'Found it.' };
        name = declaredFunctions(body).find((fn) => /memory_search/.test(fn)) ?? '';
        return { call: { name, args: { query: 'deploy releases' } } };
      };
      const { turns } = await runGemini('How do we deploy?', script);
      expect(name).not.toBe('');
      expect(functionResponses(turns.at(-1)!.body).join('\n')).toContain('blue green releases');
      return `offered as ${name}`;
    });
  });

  it('compresses a large shell output before it reaches the next request when Endless Mode is on', async () => {
    await check('Endless Mode (live)', 'AfterTool answers {"decision":"block","reason":<observation>} (block is deny\'s alias); Gemini sends the reason to the model in place of the output, as the tool\'s `error`', async () => {
      const install = await w.recall(['install', '--target', 'gemini', '--endless']);
      expect(install.exitCode, install.stderr).toBe(0);
      const { turns } = await runGemini('Count to four thousand.', callOnce('run_shell_command', { command: 'seq 100001 104000' }));
      const result = functionResponses(turns[1]!.body).join('\n');
      expect(result).not.toContain('103000');
      expect(result.length).toBeLessThan(4_000);
      expect(result).toContain('seq 100001 104000');
      return `a ${SEQ_CHARS}-character output reached the model as ${result.length} characters`;
    });
    const note = '`recall endless fork` writes Claude Code session files only; Gemini sessions (`gemini --resume`) are not forked yet';
    recordFeature(AGENT, 'Endless fork + resume', { status: 'not built', note });
    recordFeature(AGENT, 'Endless fork of a compacted session', { status: 'not built', note });
  });

  it("keeps working after `recall uninstall --target gemini`, with the user's settings as they were", async () => {
    await check('uninstall', "hooks and MCP entry removed; the user's settings stay; the CLI still answers", async () => {
      const uninstall = await w.recall(['uninstall', '--target', 'gemini']);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(USER_SETTINGS);
      const { answer, turns } = await runGemini('Anything?', () => ({ text: 'Still here.' }));
      expect(answer.response).toBe('Still here.');
      expect(geminiRequestText(turns[0]!.body)).not.toContain('blue green releases');
    });
  });
});
