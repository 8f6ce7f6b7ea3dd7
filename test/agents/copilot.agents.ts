/**
 * The real GitHub Copilot CLI (`@github/copilot`, pinned in test/agents/clis) with recall installed
 * (`--target copilot`), offline: `COPILOT_OFFLINE=true` with a bring-your-own-key provider
 * (`COPILOT_PROVIDER_BASE_URL`, `COPILOT_PROVIDER_WIRE_API=responses`) pointed at an OpenAI Responses API
 * double on 127.0.0.1, so no GitHub login is needed, and the Ollama double. Each test drives `copilot -p`
 * and reads what reached the model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionOutputs, responsesRequestText, toolNames, ResponsesDouble, type ResponsesTurn } from '../support/responses-double.js';
import { drainUntilListed, startAgentWorld, type AgentWorld } from './agent-world.js';
import { checkFeature, recordFeature, startAgentSummary } from './feature-summary.js';
import { installAgentClis } from './install-agent-clis.js';

const clis = installAgentClis();
const copilot = clis.copilot;
if (copilot === null) console.warn(`Copilot CLI suite skipped: ${clis.problems.join('; ')}`);

const AGENT = 'GitHub Copilot CLI';
/** A model id Copilot knows (its tool set and limits); the double answers whatever it is called. */
const MODEL = 'gpt-5.4';
const GLOBAL_RULE = 'You must always sign commits with the team GPG key.';
const RULE = 'Always deploy the shop service with blue green releases';
/** Under Copilot's own large-output threshold (20 KiB), above Endless Mode's. */
const SEQ = 'seq 100001 102000';
const SEQ_CHARS = Array.from({ length: 2_000 }, (_, i) => String(100_001 + i)).join('\n').length;

/** The capture jobs waiting in the queue. */
function spooled(recallHome: string): { id: string; sessionId: string | null; uncovered?: boolean }[] {
  const dir = join(recallHome, 'spool', 'pending');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { id: string; sessionId: string | null; uncovered?: boolean });
}

/** recall's log, one JSON object a line. */
function logLines(recallHome: string): Record<string, unknown>[] {
  const file = join(recallHome, 'recall.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** How many bytes of a session's file captures cover, from recall's session ledger. */
function captured(recallHome: string, sessionId: string): number {
  return (JSON.parse(readFileSync(join(recallHome, 'sessions', `captured-${sessionId}.json`), 'utf8')) as { bytes: number }).bytes;
}

describe.skipIf(copilot === null)('GitHub Copilot CLI with recall installed', () => {
  let w: AgentWorld;
  let responses: ResponsesDouble;
  let baseUrl = '';
  const bin = copilot?.bin ?? '';
  const check = (feature: string, note: string, body: () => Promise<string | void>) => checkFeature(AGENT, feature, note, body);

  /** One `copilot -p` run: the model answers each request with `script(body)`. */
  async function runCopilot(prompt: string, script: (body: Record<string, unknown>) => ResponsesTurn, options: { cwd?: string; env?: Record<string, string>; args?: string[] } = {}) {
    const from = responses.requests.length;
    responses.respond = script;
    const result = await w.run(bin, ['-p', prompt, '--allow-all-tools', '--output-format', 'json', ...(options.args ?? [])], {
      cwd: options.cwd,
      env: {
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: baseUrl,
        COPILOT_PROVIDER_WIRE_API: 'responses',
        COPILOT_MODEL: MODEL,
        COPILOT_AUTO_UPDATE: 'false',
        ...options.env,
      },
    });
    expect(result.exitCode, result.stderr + result.stdout.slice(-2_000)).toBe(0);
    const events = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string; sessionId?: string; data?: { content?: string } });
    const sessionId = events.find((e) => e.type === 'result')?.sessionId ?? '';
    const answer = events.filter((e) => e.type === 'assistant.message' && e.data?.content).at(-1)?.data?.content ?? '';
    return { sessionId, answer, turns: responses.requests.slice(from).filter((r) => r.method === 'POST' && r.path.endsWith('/responses') && r.body !== null) };
  }

  const callOnce = (name: string, args: Record<string, unknown>) => (body: Record<string, unknown>): ResponsesTurn =>
    functionOutputs(body).length === 0 ? { call: { name, arguments: args } } : { text: 'Finished.' };

  beforeAll(async () => {
    startAgentSummary(AGENT, copilot!.version);
    w = await startAgentWorld();
    responses = new ResponsesDouble();
    baseUrl = await responses.start();
  });
  afterAll(async () => {
    await responses?.close();
    await w?.close();
  });

  it('accepts `recall install --target copilot` and puts the SessionStart context into the first request', async () => {
    await check('install + SessionStart context', 'hooks in ~/.copilot/hooks/recall.json, MCP server in ~/.copilot/mcp-config.json; the hook\'s top-level additionalContext reaches the first request', async () => {
      const install = await w.recall(['install', '--target', 'copilot']);
      expect(install.exitCode, install.stderr).toBe(0);
      const hooks = JSON.parse(readFileSync(join(w.agentHome, '.copilot', 'hooks', 'recall.json'), 'utf8')) as { hooks: Record<string, unknown> };
      expect(Object.keys(hooks.hooks).sort()).toEqual(['SessionEnd', 'SessionStart', 'Stop']);
      const added = await w.recall(['add', '--here', '--type', 'golden_rule', RULE]);
      expect(added.exitCode, added.stderr).toBe(0);
      const { turns } = await runCopilot('What should I know about this project?', () => ({ text: 'Noted.' }));
      expect(responsesRequestText(turns[0]!.body)).toContain('blue green releases');
    });
  });

  it('brings a global memory into the first request of a project with no memories of its own', async () => {
    await check('global memories in a new project', '`recall add` without --here reaches every project\'s SessionStart context', async () => {
      const added = await w.recall(['add', GLOBAL_RULE], { cwd: w.h.root });
      expect(added.exitCode, added.stderr).toBe(0);
      const fresh = w.h.project('fresh-project');
      const { turns } = await runCopilot('Hello.', () => ({ text: 'Hello.' }), { cwd: fresh });
      expect(responsesRequestText(turns[0]!.body)).toContain('sign commits with the team GPG key');
    });
  });

  it('runs a scripted bash call and sends its output in the next request', async () => {
    await check('tool call output', "Copilot's bash tool runs; its output is the next request's function_call_output", async () => {
      const { turns } = await runCopilot('List the numbers.', callOnce('bash', { command: 'seq 1 5 | paste -sd+', description: 'sum' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(functionOutputs(turns[1]!.body).join('\n')).toContain('1+2+3+4+5');
    });
  });

  it("queues the session's events.jsonl at SessionEnd and the worker stores what the model answered", async () => {
    await check('capture at SessionEnd', "Copilot's SessionEnd payload has the session id but no transcript path; the hook queues $COPILOT_HOME/session-state/<id>/events.jsonl with its end open (Copilot writes the reply after the hook), the worker reads it once it has stopped growing, `recall drain` stores the Ollama answer", async () => {
      const { sessionId } = await runCopilot('You must always use tabs for indentation in this repository.', () => ({ text: 'Understood, tabs it is.' }));
      expect(existsSync(join(w.agentHome, '.copilot', 'session-state', sessionId, 'events.jsonl'))).toBe(true);
      const listed = await drainUntilListed(w, 'tabs for indentation');
      expect(listed).toContain('tabs');
      const fixed = logLines(w.h.home).filter((line) => line.msg === "fixed the end of the session's part");
      expect(fixed.length).toBeGreaterThan(0);
      return `the worker fixed the end of each of the ${fixed.length} sessions so far: ${fixed.map((line) => `${String(line.how)} after ${String(line.waitedMs)} ms`).join(', ')}`;
    });
  });

  it('captures only the new part of a resumed session at its next SessionEnd', async () => {
    await check('no capture twice', "Copilot's prompt mode ends a session after each turn and `--resume` grows the same events.jsonl; each SessionEnd queues the session with its end open, and the worker captures only the bytes no capture covered, up to where the file stopped growing", async () => {
      const first = await runCopilot('You must never force push to the release branch of this repository.', () => ({ text: 'Understood.' }), { env: { RECALL_HOOK_SPAWN: 'false' } });
      const file = join(w.agentHome, '.copilot', 'session-state', first.sessionId, 'events.jsonl');
      const before = spooled(w.h.home).filter((job) => job.sessionId === first.sessionId);
      expect(before).toHaveLength(1);
      expect(before[0]!.uncovered).toBe(true);
      const drained = await w.recall(['drain', '--json']);
      expect(drained.exitCode, drained.stderr).toBe(0);
      const firstEnd = captured(w.h.home, first.sessionId);
      expect(firstEnd).toBe(statSync(file).size);
      const from = w.h.double.requests.length;
      // Long enough to pass transcript.minChars on its own, so its capture reaches the model.
      const resumed = 'Thanks. One more rule for this repository: you must always run the integration tests before you merge a pull request.';
      await runCopilot(resumed, () => ({ text: 'Understood: the integration tests run before every merge.' }), { env: { RECALL_HOOK_SPAWN: 'false' }, args: ['--resume', first.sessionId] });
      const jobs = spooled(w.h.home).filter((job) => job.sessionId === first.sessionId && !before.some((b) => b.id === job.id));
      expect(jobs).toHaveLength(1);
      const again = await w.recall(['drain', '--json']);
      expect(again.exitCode, again.stderr).toBe(0);
      const prompts = w.h.double.requests.slice(from).map((r) => JSON.stringify(r.body)).filter((text) => text.includes('<transcript>'));
      expect(prompts).toHaveLength(1);
      expect(prompts[0]).toContain('run the integration tests before you merge');
      expect(prompts[0]).not.toContain('never force push');
      const secondEnd = captured(w.h.home, first.sessionId);
      expect(secondEnd).toBe(statSync(file).size);
      return `the first capture read bytes 0-${firstEnd}, the resumed session's ${firstEnd}-${secondEnd} only`;
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
      const { turns } = await runCopilot('How do we deploy?', script);
      expect(name).not.toBe('');
      expect(functionOutputs(turns.at(-1)!.body).join('\n')).toContain('blue green releases');
      return `offered as ${name}`;
    });
  });

  it('compresses a large shell output before it reaches the next request when Endless Mode is on', async () => {
    await check('Endless Mode (live)', 'PostToolUse answers {"modifiedResult":{"textResultForLlm":<observation>}}; Copilot sends it to the model in place of the output', async () => {
      const install = await w.recall(['install', '--target', 'copilot', '--endless']);
      expect(install.exitCode, install.stderr).toBe(0);
      const { turns } = await runCopilot('Count to two thousand.', callOnce('bash', { command: SEQ, description: 'count' }));
      const result = functionOutputs(turns[1]!.body).join('\n');
      expect(result).not.toContain('101500');
      expect(result.length).toBeLessThan(4_000);
      expect(result).toContain(SEQ);
      return `a ${SEQ_CHARS}-character output reached the model as ${result.length} characters`;
    });
    const note = '`recall endless fork` writes Claude Code session files only; Copilot sessions (`copilot --resume <id>`) are not forked yet';
    recordFeature(AGENT, 'Endless fork + resume', { status: 'not built', note });
    recordFeature(AGENT, 'Endless fork of a compacted session', { status: 'not built', note });
  });

  it("keeps working after `recall uninstall --target copilot`", async () => {
    await check('uninstall', "recall's hooks and MCP entry removed; the CLI still answers, without recall's context", async () => {
      const uninstall = await w.recall(['uninstall', '--target', 'copilot']);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      const hooksFile = join(w.agentHome, '.copilot', 'hooks', 'recall.json');
      expect(existsSync(hooksFile) ? readFileSync(hooksFile, 'utf8') : '').not.toContain('hook session');
      expect(readFileSync(join(w.agentHome, '.copilot', 'mcp-config.json'), 'utf8')).not.toContain('dist/cli/main.js');
      const { answer, turns } = await runCopilot('Anything?', () => ({ text: 'Still here.' }));
      expect(answer).toBe('Still here.');
      expect(responsesRequestText(turns[0]!.body)).not.toContain('blue green releases');
    });
  });
});
