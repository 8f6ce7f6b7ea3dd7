/**
 * The real Codex CLI (`@openai/codex`, pinned in test/agents/clis) with recall installed (`--target codex`),
 * against an OpenAI Responses API double (a custom `model_providers` entry in ~/.codex/config.toml) and the
 * Ollama double. Each test drives `codex exec` and reads what reached the model.
 *
 * Codex runs a new or changed hook only once the user has trusted it (`/hooks` in the TUI); the runs here pass
 * `--dangerously-bypass-hook-trust`, which Codex offers for automation, and one test shows that without trust
 * the hooks stay silent (what `recall install` and doctor tell the user).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionOutputs, responsesRequestText, toolNames, ResponsesDouble, type ResponsesTurn } from '../support/responses-double.js';
import { drainUntilListed, startAgentWorld, type AgentWorld } from './agent-world.js';
import { checkFeature, recordFeature, startAgentSummary } from './feature-summary.js';
import { installAgentClis } from './install-agent-clis.js';

const clis = installAgentClis();
const codex = clis.codex;
if (codex === null) console.warn(`Codex suite skipped: ${clis.problems.join('; ')}`);

const AGENT = 'Codex CLI';
const MODEL = 'recall-double';
const GLOBAL_RULE = 'You must always sign commits with the team GPG key.';
const RULE = 'Always deploy the shop service with blue green releases';
/** Characters `seq 100001 104000` prints. */
const SEQ_CHARS = Array.from({ length: 4_000 }, (_, i) => String(100_001 + i)).join('\n').length;

/** The user's Codex config before recall touches it: a comment, the model provider, a table after it. */
function codexConfig(baseUrl: string): string {
  return [
    '# my codex settings',
    `model = "${MODEL}"`,
    'model_provider = "double"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.double]',
    'name = "Recall double"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "RECALL_DOUBLE_API_KEY"',
    '',
  ].join('\n');
}

/** The capture jobs waiting in the queue. */
function spooled(recallHome: string): { id: string; sessionId: string | null; fromByte?: number; toByte?: number | null }[] {
  const dir = join(recallHome, 'spool', 'pending');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { id: string; sessionId: string | null; fromByte?: number; toByte?: number | null });
}

describe.skipIf(codex === null)('Codex CLI with recall installed', () => {
  let w: AgentWorld;
  let responses: ResponsesDouble;
  let configFile = '';
  let userConfig = '';
  const bin = codex?.bin ?? '';
  const check = (feature: string, note: string, body: () => Promise<string | void>) => checkFeature(AGENT, feature, note, body);

  /** One `codex exec` run: the model answers each request with `script(body)`. */
  async function runCodex(prompt: string, script: (body: Record<string, unknown>) => ResponsesTurn, options: { cwd?: string; trust?: boolean; env?: Record<string, string> } = {}) {
    const from = responses.requests.length;
    responses.respond = script;
    const trust = options.trust === false ? [] : ['--dangerously-bypass-hook-trust'];
    const result = await w.run(bin, ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', ...trust, prompt], {
      cwd: options.cwd,
      env: { RECALL_DOUBLE_API_KEY: 'sk-test-double', ...options.env },
    });
    expect(result.exitCode, result.stderr + result.stdout).toBe(0);
    const events = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string; thread_id?: string; item?: { type: string; text?: string } });
    const threadId = events.find((e) => e.type === 'thread.started')?.thread_id ?? '';
    const answer = events.filter((e) => e.item?.type === 'agent_message').at(-1)?.item?.text ?? '';
    return { threadId, answer, stderr: result.stderr, turns: responses.requests.slice(from).filter((r) => r.method === 'POST' && r.path.endsWith('/responses') && r.body !== null) };
  }

  const callOnce = (name: string, args: Record<string, unknown>) => (body: Record<string, unknown>): ResponsesTurn =>
    functionOutputs(body).length === 0 ? { call: { name, arguments: args } } : { text: 'Finished.' };

  beforeAll(async () => {
    startAgentSummary(AGENT, codex!.version);
    w = await startAgentWorld();
    responses = new ResponsesDouble();
    const baseUrl = await responses.start();
    configFile = join(w.agentHome, '.codex', 'config.toml');
    userConfig = codexConfig(baseUrl);
    mkdirSync(join(w.agentHome, '.codex'), { recursive: true });
    writeFileSync(configFile, userConfig);
  });
  afterAll(async () => {
    await responses?.close();
    await w?.close();
  });

  it('accepts `recall install --target codex` and puts the SessionStart context into the first request', async () => {
    await check('install + SessionStart context', 'hooks in ~/.codex/hooks.json, MCP server in ~/.codex/config.toml; additionalContext reaches the first request as a developer message', async () => {
      const install = await w.recall(['install', '--target', 'codex']);
      expect(install.exitCode, install.stderr).toBe(0);
      expect(install.stdout).toContain('trust');
      // The user's own config stays as it was, byte for byte, above recall's table.
      expect(readFileSync(configFile, 'utf8').startsWith(userConfig)).toBe(true);
      const added = await w.recall(['add', '--here', '--type', 'golden_rule', RULE]);
      expect(added.exitCode, added.stderr).toBe(0);
      const { turns } = await runCodex('What should I know about this project?', () => ({ text: 'Noted.' }));
      expect(responsesRequestText(turns[0]!.body)).toContain('blue green releases');
    });
  });

  it('runs no hook of recall until the user trusts it', async () => {
    const { turns, stderr } = await runCodex('What should I know about this project?', () => ({ text: 'Noted.' }), { trust: false });
    expect(responsesRequestText(turns[0]!.body)).not.toContain('blue green releases');
    expect(stderr).not.toContain('hook: SessionStart');
  });

  it('brings a global memory into the first request of a project with no memories of its own', async () => {
    await check('global memories in a new project', '`recall add` without --here reaches every project\'s SessionStart context', async () => {
      const added = await w.recall(['add', GLOBAL_RULE], { cwd: w.h.root });
      expect(added.exitCode, added.stderr).toBe(0);
      const fresh = w.h.project('fresh-project');
      const { turns } = await runCodex('Hello.', () => ({ text: 'Hello.' }), { cwd: fresh });
      expect(responsesRequestText(turns[0]!.body)).toContain('sign commits with the team GPG key');
    });
  });

  it('runs a scripted exec_command call and sends its output in the next request', async () => {
    await check('tool call output', "Codex's exec_command tool runs; its output is the next request's function_call_output", async () => {
      const { turns } = await runCodex('List the numbers.', callOnce('exec_command', { cmd: 'seq 1 5 | paste -sd+' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(functionOutputs(turns[1]!.body).join('\n')).toContain('1+2+3+4+5');
    });
  });

  it("queues the session's rollout at SessionEnd and the worker stores what the model answered", async () => {
    await check('capture at SessionEnd', 'Codex (0.146+) runs SessionEnd hooks when a session ends (capped at 3 s); it queues the rollout file, `recall drain` stores the Ollama answer', async () => {
      await runCodex('You must always use tabs for indentation in this repository.', () => ({ text: 'Understood, tabs it is.' }));
      const listed = await drainUntilListed(w, 'tabs for indentation');
      expect(listed).toContain('tabs');
    });
  });

  it('captures a session that ended without SessionEnd at a later SessionStart, once, and only its new part after that', async () => {
    await check('capture without SessionEnd', "the Stop hook marks the session open; a session that ended without SessionEnd (killed, terminal closed) is queued at a later SessionStart once idle 15 minutes, and a later capture of it reads only the bytes no capture covered", async () => {
      // A killed session: Stop ran, SessionEnd never did (its entry is left out of hooks.json for this run).
      const hooksFile = join(w.agentHome, '.codex', 'hooks.json');
      const installed = readFileSync(hooksFile, 'utf8');
      const withoutEnd = JSON.parse(installed) as { hooks: Record<string, unknown> };
      delete withoutEnd.hooks.SessionEnd;
      writeFileSync(hooksFile, JSON.stringify(withoutEnd));
      let threadId = '';
      try {
        ({ threadId } = await runCodex('You must never force push to the release branch of this repository.', () => ({ text: 'Understood: no force pushes to the release branch, ever.' })));
      } finally {
        writeFileSync(hooksFile, installed);
      }
      const marker = join(w.h.home, 'sessions', `open-${threadId}.json`);
      expect(existsSync(marker)).toBe(true);
      // Fifteen idle minutes pass.
      const open = JSON.parse(readFileSync(marker, 'utf8')) as { transcriptPath: string; stoppedAt: number };
      const then = (Date.now() - 16 * 60_000) / 1000;
      utimesSync(open.transcriptPath, then, then);
      writeFileSync(marker, JSON.stringify({ ...open, stoppedAt: then * 1000 }));
      await runCodex('Hello again.', () => ({ text: 'Hello.' }));
      expect(existsSync(marker)).toBe(false);
      const listed = await drainUntilListed(w, 'force push');
      expect(listed).toContain('release branch');
      // The same session resumed and ended: its SessionEnd captures only what came after the idle capture.
      const queued = spooled(w.h.home);
      const resumed = await w.run(bin, ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', 'resume', threadId, 'Thanks.'], {
        env: { RECALL_DOUBLE_API_KEY: 'sk-test-double', RECALL_HOOK_SPAWN: 'false' },
      });
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const jobs = spooled(w.h.home).filter((job) => !queued.some((q) => q.id === job.id) && job.sessionId === threadId);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.fromByte).toBeGreaterThan(0);
      return `the resumed session's SessionEnd queued bytes ${jobs[0]!.fromByte}-${jobs[0]!.toByte} only`;
    });
  });

  it("returns recall's answer to the model's call of an MCP tool", async () => {
    await check('MCP tools', "recall's memory_search is offered to the model and answers from the store", async () => {
      let name = '';
      const script = (body: Record<string, unknown>): ResponsesTurn => {
        if (functionOutputs(body).length > 0) return { text: 'Found it.' };
        name = toolNames(body).find((tool) => /recall.*memory_search/.test(tool)) ?? '';
        const [namespace, tool] = name.includes('.') ? name.split('.') : [undefined, name];
        return { call: { ...(namespace === undefined ? {} : { namespace }), name: tool!, arguments: { query: 'deploy releases' } } };
      };
      const { turns } = await runCodex('How do we deploy?', script);
      expect(name).not.toBe('');
      expect(functionOutputs(turns.at(-1)!.body).join('\n')).toContain('blue green releases');
      return `offered as ${name}`;
    });
  });

  it('compresses a large shell output before it reaches the next request when Endless Mode is on', async () => {
    await check('Endless Mode (live)', 'PostToolUse answers {"decision":"block","reason":<observation>}; Codex sends the reason to the model in place of the output', async () => {
      const install = await w.recall(['install', '--target', 'codex', '--endless']);
      expect(install.exitCode, install.stderr).toBe(0);
      const { turns } = await runCodex('Count to four thousand.', callOnce('exec_command', { cmd: 'seq 100001 104000' }));
      const result = functionOutputs(turns[1]!.body).join('\n');
      expect(result).not.toContain('103000');
      expect(result.length).toBeLessThan(4_000);
      expect(result).toContain('seq 100001 104000');
      return `a ${SEQ_CHARS}-character output reached the model as ${result.length} characters`;
    });
    const note = '`recall endless fork` writes Claude Code session files only; Codex rollouts (`codex resume <id>`) are not forked yet';
    recordFeature(AGENT, 'Endless fork + resume', { status: 'not built', note });
    recordFeature(AGENT, 'Endless fork of a compacted session', { status: 'not built', note });
  });

  it('keeps working after `recall uninstall --target codex`, with the user\'s config as it was', async () => {
    await check('uninstall', 'hooks and MCP entry removed; config.toml back to the user\'s bytes; the CLI still answers', async () => {
      const uninstall = await w.recall(['uninstall', '--target', 'codex']);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      expect(readFileSync(configFile, 'utf8')).toBe(userConfig);
      const hooksFile = join(w.agentHome, '.codex', 'hooks.json');
      expect(existsSync(hooksFile) ? readFileSync(hooksFile, 'utf8') : '').not.toContain('recall');
      const { answer, turns } = await runCodex('Anything?', () => ({ text: 'Still here.' }));
      expect(answer).toBe('Still here.');
      expect(responsesRequestText(turns[0]!.body)).not.toContain('blue green releases');
    });
  });
});
