/**
 * The real Factory droid CLI (pinned in test/agents/clis) with recall installed (`--target factory`),
 * against the Messages API double (a custom Anthropic-protocol model in ~/.factory/config.json) and
 * the Ollama double. Each test drives `droid exec` and reads what reached the model.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allToolResults, lastToolResults, requestText, type MessagesTurn } from '../support/messages-double.js';
import { drainUntilListed, startAgentWorld, type AgentWorld } from './agent-world.js';
import { checkFeature, recordFeature, startAgentSummary } from './feature-summary.js';
import { installAgentClis } from './install-agent-clis.js';

const clis = installAgentClis();
const droid = clis.droid;
if (droid === null) console.warn(`droid suite skipped: ${clis.problems.join('; ')}`);

const AGENT = 'Factory droid';
const MODEL = 'recall-double';
const GLOBAL_RULE = 'You must always sign commits with the team GPG key.';
const RULE = 'Always deploy the shop service with blue green releases';

describe.skipIf(droid === null)('Factory droid with recall installed', () => {
  let w: AgentWorld;
  const bin = droid?.bin ?? '';
  const check = (feature: string, note: string, body: () => Promise<string | void>) => checkFeature(AGENT, feature, note, body);

  /** One `droid exec` turn: the model answers each request with `script(body)`. */
  async function runDroid(prompt: string, script: (body: Record<string, unknown>) => MessagesTurn, env: Record<string, string> = {}, cwd?: string) {
    const from = w.messages.requests.length;
    w.messages.respond = script;
    const result = await w.run(bin, ['exec', '-m', `custom:${MODEL}`, '--skip-permissions-unsafe', '-o', 'json', prompt], { env, cwd });
    expect(result.exitCode, result.stderr + result.stdout).toBe(0);
    const answer = JSON.parse(result.stdout) as { session_id: string; result: string; is_error: boolean };
    return { answer, turns: w.messages.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/messages' && r.body !== null) };
  }

  const callOnce = (tool: string, input: Record<string, unknown>) => (body: Record<string, unknown>): MessagesTurn =>
    lastToolResults(body) === null ? { toolUse: { name: tool, input } } : { text: 'Finished.' };

  beforeAll(async () => {
    startAgentSummary(AGENT, droid!.version);
    w = await startAgentWorld();
    mkdirSync(join(w.agentHome, '.factory'), { recursive: true });
    const model = { model_display_name: 'Recall double', model: MODEL, base_url: w.env.ANTHROPIC_BASE_URL, api_key: 'sk-ant-test-double', provider: 'anthropic', max_tokens: 4096 };
    writeFileSync(join(w.agentHome, '.factory', 'config.json'), JSON.stringify({ custom_models: [model] }));
  });
  afterAll(async () => {
    await w?.close();
  });

  it('accepts `recall install --target factory` and puts the SessionStart context into the first request', async () => {
    await check('install + SessionStart context', 'hooks in ~/.factory/settings.json; additionalContext reaches the first request', async () => {
      const install = await w.recall(['install', '--target', 'factory']);
      expect(install.exitCode, install.stderr).toBe(0);
      const added = await w.recall(['add', '--here', '--type', 'golden_rule', RULE]);
      expect(added.exitCode, added.stderr).toBe(0);
      const { turns } = await runDroid('What should I know about this project?', () => ({ text: 'Noted.' }));
      expect(requestText(turns[0]!.body)).toContain('blue green releases');
    });
  });

  it('brings a global memory into the first request of a project with no memories of its own', async () => {
    await check('global memories in a new project', '`recall add` without --here reaches every project\'s SessionStart context', async () => {
      const added = await w.recall(['add', GLOBAL_RULE], { cwd: w.h.root });
      expect(added.exitCode, added.stderr).toBe(0);
      const fresh = w.h.project('fresh-project');
      const { turns } = await runDroid('Hello.', () => ({ text: 'Hello.' }), {}, fresh);
      expect(requestText(turns[0]!.body)).toContain('sign commits with the team GPG key');
    });
  });

  it('runs a scripted Execute call and sends its output in the next request', async () => {
    await check('tool call output', "droid's Execute tool runs; its output is the next request's tool_result", async () => {
      const { turns } = await runDroid('List the numbers.', callOnce('Execute', { command: 'seq 1 5 | paste -sd+' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(lastToolResults(turns[1]!.body)!.join('\n')).toContain('1+2+3+4+5');
    });
  });

  it("queues the session's real transcript at SessionEnd and the worker stores what the model answered", async () => {
    await check('capture at SessionEnd', 'SessionEnd queues the droid session file; `recall drain` stores the Ollama answer', async () => {
      await runDroid('You must always use tabs for indentation in this repository.', () => ({ text: 'Understood, tabs it is.' }));
      const listed = await drainUntilListed(w, 'tabs for indentation');
      expect(listed).toContain('tabs');
    });
  });

  it("returns recall's answer to the model's call of an MCP tool", async () => {
    const note =
      'recall___memory_search answers the model from the store; droid defers MCP tools, and `droid exec` may send its first request before they are listed, so the model loads the tool with ToolSearch (`select:recall___memory_search`) first';
    await check('MCP tools', note, async () => {
      const search: MessagesTurn = { toolUse: { name: 'recall___memory_search', input: { query: 'deploy releases' } } };
      let searched = false;
      const script = (body: Record<string, unknown>): MessagesTurn => {
        const results = allToolResults(body);
        if (results.length === 0) return requestText(body).includes('recall___memory_search') ? search : { toolUse: { name: 'ToolSearch', input: { query: 'select:recall___memory_search' } } };
        if (searched) return { text: 'Found it.' };
        searched = true;
        return search;
      };
      const { turns } = await runDroid('How do we deploy?', script);
      expect(allToolResults(turns.at(-1)!.body).at(-1)).toContain('blue green releases');
      return allToolResults(turns.at(-1)!.body).length === 1 ? 'listed in the first request' : 'loaded with ToolSearch';
    });
  });

  it('sends the original tool output to the model even when a PostToolUse hook answers updatedToolOutput', async () => {
    // A hook of the user's own that answers what Claude Code honours: droid 0.225 reads only
    // additionalContext, systemMessage, continue and the exit code of a PostToolUse hook.
    const hook = join(w.h.root, 'replace-output.sh');
    writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"HOOK-CONTEXT-SEEN","updatedToolOutput":"REPLACED-BY-HOOK"}}'\n`);
    chmodSync(hook, 0o755);
    const settingsFile = join(w.agentHome, '.factory', 'settings.json');
    const original = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : '{}';
    const settings = JSON.parse(original) as { hooks?: Record<string, unknown[]> };
    settings.hooks ??= {};
    settings.hooks.PostToolUse = [{ matcher: '*', hooks: [{ type: 'command', command: hook, timeout: 10 }] }];
    writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    try {
      const once = (body: Record<string, unknown>): MessagesTurn => (allToolResults(body).length === 0 ? { toolUse: { name: 'Execute', input: { command: 'seq 100001 100003' } } } : { text: 'Counted.' });
      const { turns } = await runDroid('Count.', once);
      const result = allToolResults(turns[1]!.body).join('\n');
      expect(result).toContain('100002');
      expect(result).not.toContain('REPLACED-BY-HOOK');
      // The hook ran and droid read its answer: the additionalContext beside it reached the model.
      expect(requestText(turns[1]!.body)).toContain('HOOK-CONTEXT-SEEN');
      expect(requestText(turns[1]!.body)).not.toContain('REPLACED-BY-HOOK');
      recordFeature(AGENT, 'Endless Mode (live)', {
        status: 'not possible',
        note: 'droid sends the original output to the model whatever a PostToolUse hook answers (no updatedToolOutput); install --endless adds no PostToolUse hook for droid',
      });
    } finally {
      writeFileSync(settingsFile, original);
    }
  });

  it('cannot resume a session offline, so a compressed copy of one cannot be resumed either', async () => {
    const { answer } = await runDroid('Count.', callOnce('Execute', { command: 'seq 1 3' }));
    const log = join(w.agentHome, '.factory', 'logs', 'droid-log-single.log');
    writeFileSync(log, '');
    const from = w.messages.turns().length;
    const resumed = await w.run(bin, ['exec', '-m', `custom:${MODEL}`, '--skip-permissions-unsafe', '-s', answer.session_id, 'Go on.']);
    expect(resumed.exitCode).not.toBe(0);
    expect(w.messages.turns().length).toBe(from);
    expect(readFileSync(log, 'utf8')).toContain('api.factory.ai');
    recordFeature(AGENT, 'Endless fork + resume', {
      status: 'not possible',
      note: '`droid exec -s <id>` (and `--fork <id>`) asks api.factory.ai for the session before it reads the local file and fails offline, so a compressed copy cannot be resumed',
    });
    recordFeature(AGENT, 'Endless fork of a compacted session', { status: 'not possible', note: 'as for any droid session: no offline resume' });
  });

  it('keeps working after `recall uninstall --target factory`', async () => {
    await check('uninstall', 'hooks and MCP entry removed; the CLI still answers', async () => {
      const uninstall = await w.recall(['uninstall', '--target', 'factory']);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      const { answer, turns } = await runDroid('Anything?', () => ({ text: 'Still here.' }));
      expect(answer.result).toBe('Still here.');
      expect(requestText(turns[0]!.body)).not.toContain('blue green releases');
    });
  });
});
