/**
 * One agent-suite world: a private HOME for the agent, a private RECALL_HOME, a project folder, the
 * Ollama double (extraction and Endless observations) and the Messages API double the agent talks to.
 * Loopback only.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { compactObservationReply } from '../fixtures/endless/compact-reply.mjs';
import { defaultReply } from '../../scripts/ollama-double.mjs';
import { startHarness, type Harness } from '../support/harness.js';
import { expect } from 'vitest';
import { runCli, waitFor, type CliResult } from '../support/cli.js';
import { MessagesDouble } from '../support/messages-double.js';

export interface AgentWorld {
  h: Harness;
  agentHome: string;
  project: string;
  messages: MessagesDouble;
  /** The environment the agent runs in (its hooks and MCP server inherit it). */
  env: NodeJS.ProcessEnv;
  recall(args: readonly string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<CliResult>;
  run(bin: string, args: readonly string[], options?: { cwd?: string; timeoutMs?: number; env?: Record<string, string> }): Promise<CliResult>;
  close(): Promise<void>;
}

/** Observation requests carry the tool output in an `<output>` block; anything else is an extraction. */
function ollamaReply(body: Record<string, unknown>): string {
  const text = JSON.stringify(body.messages ?? body.prompt ?? '');
  return text.includes('<output>') ? compactObservationReply(body) : defaultReply(body);
}

export async function startAgentWorld(extraEnv: Record<string, string> = {}): Promise<AgentWorld> {
  const h = await startHarness({ embedder: 'hash', double: { reply: ollamaReply } });
  const agentHome = join(h.root, 'agent-home');
  mkdirSync(agentHome, { recursive: true });
  const project = h.project('shop-api');
  const messages = new MessagesDouble();
  const baseUrl = await messages.start();
  const env: NodeJS.ProcessEnv = {
    ...h.env,
    HOME: agentHome,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-double',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    IS_SANDBOX: '1',
    ...extraEnv,
  };
  return {
    h,
    agentHome,
    project,
    messages,
    env,
    recall: (args, options = {}) => runCli(args, { env: { ...env, ...options.env }, cwd: options.cwd ?? project, timeoutMs: 120_000 }),
    async run(bin, args, options = {}) {
      const result = await execa(bin, args, {
        env: { ...env, ...options.env },
        extendEnv: false,
        cwd: options.cwd ?? project,
        stdin: 'ignore',
        reject: false,
        timeout: options.timeoutMs ?? 180_000,
      });
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
    },
    async close() {
      await messages.close();
      await h.close();
    },
  };
}

/** Runs `recall drain`, then waits until `recall list --here` shows a memory holding `needle` (lower case); the list's JSON. */
export async function drainUntilListed(w: AgentWorld, needle: string): Promise<string> {
  const drained = await w.recall(['drain', '--json']);
  expect(drained.exitCode, drained.stderr).toBe(0);
  return waitFor(async () => {
    const list = await w.recall(['list', '--here', '--json']);
    return list.stdout.toLowerCase().includes(needle) ? list.stdout : undefined;
  }, { timeoutMs: 60_000, everyMs: 1_000 });
}
