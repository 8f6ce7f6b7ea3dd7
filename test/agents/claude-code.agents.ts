/**
 * The real Claude Code CLI (pinned in test/agents/clis) with recall installed, against the Messages
 * API double and the Ollama double. Each test drives `claude -p` and reads what reached the model.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastToolResults, requestText, type MessagesTurn } from '../support/messages-double.js';
import { drainUntilListed, startAgentWorld, type AgentWorld } from './agent-world.js';
import { checkFeature, startAgentSummary } from './feature-summary.js';
import { installAgentClis } from './install-agent-clis.js';

const clis = installAgentClis();
const claude = clis.claude;
if (claude === null) console.warn(`Claude Code suite skipped: ${clis.problems.join('; ')}`);

const AGENT = 'Claude Code';
/** Characters `seq 100001 106000` prints. */
const SEQ_CHARS = Array.from({ length: 6_000 }, (_, i) => String(100_001 + i)).join('\n').length;
const GLOBAL_RULE = 'You must always sign commits with the team GPG key.';
const RULE = 'Always run database migrations with pnpm db:migrate, never with raw SQL';

describe.skipIf(claude === null)('Claude Code with recall installed', () => {
  let w: AgentWorld;
  const bin = claude?.bin ?? '';
  const check = (feature: string, note: string, body: () => Promise<string | void>) => checkFeature(AGENT, feature, note, body);

  /** One `claude -p` turn: the model answers each request with `script(body)`. */
  async function runClaude(prompt: string, script: (body: Record<string, unknown>) => MessagesTurn, extra: string[] = [], env: Record<string, string> = {}, cwd?: string) {
    const from = w.messages.requests.length;
    w.messages.respond = script;
    const result = await w.run(bin, ['-p', prompt, '--output-format', 'json', '--dangerously-skip-permissions', ...extra], { env, cwd });
    expect(result.exitCode, result.stderr + result.stdout).toBe(0);
    const answer = JSON.parse(result.stdout) as { session_id: string; result: string; is_error: boolean };
    return { answer, turns: w.messages.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/messages' && r.body !== null) };
  }

  /** Calls `tool` once with `input`, then ends the turn. */
  const callOnce = (tool: string, input: Record<string, unknown>) => (body: Record<string, unknown>): MessagesTurn =>
    lastToolResults(body) === null ? { toolUse: { name: tool, input } } : { text: 'Finished.' };

  beforeAll(async () => {
    startAgentSummary(AGENT, claude!.version);
    w = await startAgentWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('accepts `recall install` and puts the SessionStart context into the first request', async () => {
    await check('install + SessionStart context', 'hooks in ~/.claude/settings.json; additionalContext reaches the first request', async () => {
      const install = await w.recall(['install', '--target', 'claude']);
      expect(install.exitCode, install.stderr).toBe(0);
      const added = await w.recall(['add', '--here', '--type', 'golden_rule', RULE]);
      expect(added.exitCode, added.stderr).toBe(0);
      const { answer, turns } = await runClaude('What should I know about this project?', () => ({ text: 'Noted.' }));
      expect(answer.is_error).toBe(false);
      expect(requestText(turns[0]!.body)).toContain('pnpm db:migrate');
    });
  });

  it('brings a global memory into the first request of a project with no memories of its own', async () => {
    await check('global memories in a new project', '`recall add` without --here reaches every project\'s SessionStart context', async () => {
      const added = await w.recall(['add', GLOBAL_RULE], { cwd: w.h.root });
      expect(added.exitCode, added.stderr).toBe(0);
      const fresh = w.h.project('fresh-project');
      const { turns } = await runClaude('Hello.', () => ({ text: 'Hello.' }), [], {}, fresh);
      expect(requestText(turns[0]!.body)).toContain('sign commits with the team GPG key');
    });
  });

  it('runs a scripted Bash call and sends its output in the next request', async () => {
    await check('tool call output', 'Bash runs through the real CLI; its output is the next request\'s tool_result', async () => {
      const { turns } = await runClaude('List the numbers.', callOnce('Bash', { command: 'seq 1 5 | paste -sd+', description: 'numbers' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(lastToolResults(turns[1]!.body)!.join('\n')).toContain('1+2+3+4+5');
    });
  });

  it("queues the session's real transcript at SessionEnd and the worker stores what the model answered", async () => {
    await check('capture at SessionEnd', 'SessionEnd queues the transcript; `recall drain` stores the Ollama answer', async () => {
      await runClaude('You must always use tabs for indentation in this repository.', () => ({ text: 'Understood, tabs it is.' }));
      const listed = await drainUntilListed(w, 'tabs for indentation');
      expect(listed).toContain('tabs');
    });
  });

  it("returns recall's answer to the model's call of an MCP tool", async () => {
    await check('MCP tools', 'mcp__recall__memory_search answers the model from the store', async () => {
      const { turns } = await runClaude('How do we migrate?', callOnce('mcp__recall__memory_search', { query: 'database migrations' }));
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(lastToolResults(turns.at(-1)!.body)!.join('\n')).toContain('pnpm db:migrate');
    });
  });

  it('compresses a large Bash output before it reaches the next request when Endless Mode is on', async () => {
    await check('Endless Mode (live)', 'PostToolUse answers updatedToolOutput in the Bash shape; the model gets the observation', async () => {
      const install = await w.recall(['install', '--target', 'claude', '--endless']);
      expect(install.exitCode, install.stderr).toBe(0);
      const { turns } = await runClaude('Count to six thousand.', callOnce('Bash', { command: 'seq 100001 106000', description: 'count' }));
      const result = lastToolResults(turns[1]!.body)!.join('\n');
      expect(result).not.toContain('103000');
      expect(result.length).toBeLessThan(4_000);
      expect(result).toContain('seq 100001 106000');
      return `a ${SEQ_CHARS}-character output reached the model as ${result.length} characters`;
    });
  });

  it('forks a session with `recall endless fork` and `claude --resume` sends the compressed history', async () => {
    await check('Endless fork + resume', '`recall endless fork <id>` writes a new session; `claude --resume <new id>` sends it', async () => {
      const outputs = (body: Record<string, unknown>) => JSON.stringify(body.messages).split('"tool_result"').length - 1;
      const fiveCalls = (body: Record<string, unknown>): MessagesTurn =>
        outputs(body) < 5 ? { toolUse: { name: 'Bash', input: { command: `seq ${outputs(body) * 10_000 + 1} ${outputs(body) * 10_000 + 3_000}` } } } : { text: 'Counted.' };
      const { answer } = await runClaude('Count five times.', fiveCalls, [], { RECALL_ENDLESS_MODE: 'false' });
      const resumeOriginal = await runClaude('Go on.', () => ({ text: 'Going on.' }), ['--resume', answer.session_id]);
      const fork = await w.recall(['endless', 'fork', answer.session_id, '--json']);
      expect(fork.exitCode, fork.stderr).toBe(0);
      const forked = JSON.parse(fork.stdout) as { newSessionId: string };
      const resumeFork = await runClaude('Go on.', () => ({ text: 'Going on.' }), ['--resume', forked.newSessionId]);
      const before = resumeOriginal.turns[0]!.bytes;
      const after = resumeFork.turns[0]!.bytes;
      expect(requestText(resumeFork.turns[0]!.body)).toContain('Count five times.');
      expect(requestText(resumeFork.turns[0]!.body)).not.toContain('"1500');
      expect(after).toBeLessThan(before - 20_000);
      return `first resumed request ${before} bytes from the original, ${after} from the fork`;
    });
  });

  it('forks a compacted session: the resumed fork sends the compaction summary and what came after it', async () => {
    await check('Endless fork of a compacted session', '`/compact` writes a compact boundary; the fork keeps it and `--resume` starts from the summary', async () => {
      const calls = (body: Record<string, unknown>) => JSON.stringify(body.messages).split('"tool_result"').length - 1;
      const { answer } = await runClaude('Count before compacting.', (body) => (calls(body) < 2 ? { toolUse: { name: 'Bash', input: { command: `seq 1 ${3_000 + calls(body)}` } } } : { text: 'Counted.' }), [], { RECALL_ENDLESS_MODE: 'false' });
      const compact = await runClaude('/compact', () => ({ text: '<summary>COMPACT-SUMMARY: the user counted twice with seq.</summary>' }), ['--resume', answer.session_id], { RECALL_ENDLESS_MODE: 'false' });
      const after = await runClaude('Count after compacting.', (body) => (calls(body) < 4 && !lastToolResults(body) ? { toolUse: { name: 'Bash', input: { command: 'seq 50001 53000' } } } : { text: 'Counted again.' }), ['--resume', compact.answer.session_id], { RECALL_ENDLESS_MODE: 'false' });
      const transcript = findTranscript(w.agentHome, after.answer.session_id);
      const text = readFileSync(transcript, 'utf8');
      expect(text).toContain('compact_boundary');
      const fork = await w.recall(['endless', 'fork', transcript, '--json', '--keep-recent', '0']);
      expect(fork.exitCode, fork.stderr).toBe(0);
      const forked = JSON.parse(fork.stdout) as { newSessionId: string };
      const resumed = await runClaude('Go on.', () => ({ text: 'Going on.' }), ['--resume', forked.newSessionId]);
      const sent = requestText(resumed.turns[0]!.body);
      expect(sent).toContain('COMPACT-SUMMARY');
      expect(sent).toContain('Count after compacting.');
      // The outputs before the boundary (`seq 1 3000`, `seq 1 3001`) stay behind it.
      expect(sent).not.toContain('2999\\n3000');
      expect(sent).not.toContain('52000');
      expect(resumed.turns[0]!.bytes).toBeLessThan(after.turns.at(-1)!.bytes);
      // The capture of the compacted session keeps the summary, not Claude Code's resume instructions.
      expect((await w.recall(['drain', '--json'])).exitCode).toBe(0);
      expect((await w.recall(['list', '--json'])).stdout).not.toContain('break never happened');
      return `last request before the fork ${after.turns.at(-1)!.bytes} bytes, first request of the resumed fork ${resumed.turns[0]!.bytes}`;
    });
  });

  it('keeps working after `recall uninstall`', async () => {
    await check('uninstall', 'hooks and MCP entry removed; the CLI still answers', async () => {
      const uninstall = await w.recall(['uninstall', '--target', 'claude']);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      const { answer, turns } = await runClaude('Anything?', () => ({ text: 'Still here.' }));
      expect(answer.result).toBe('Still here.');
      expect(requestText(turns[0]!.body)).not.toContain('pnpm db:migrate');
    });
  });
});

/** Claude Code's transcript of a session: ~/.claude/projects/<folder for the cwd>/<id>.jsonl. */
function findTranscript(agentHome: string, sessionId: string): string {
  const projects = join(agentHome, '.claude', 'projects');
  for (const folder of readdirSync(projects)) {
    if (readdirSync(join(projects, folder)).includes(`${sessionId}.jsonl`)) return join(projects, folder, `${sessionId}.jsonl`);
  }
  throw new Error(`no transcript for session ${sessionId} under ${projects}`);
}
