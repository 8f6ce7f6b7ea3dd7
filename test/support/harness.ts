/**
 * One integration-test world: a private RECALL_HOME, an Ollama-protocol double on 127.0.0.1,
 * a tiny real transformers model folder, and project folders for sessions to run in.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { OllamaDouble, type OllamaDoubleOptions, type StartedDouble } from '../../scripts/ollama-double.mjs';
import { buildTinyModel, DEFAULT_TINY_VOCAB } from './tiny-model.js';
import { baseEnv } from './cli.js';
import { settleProcessesOf } from './state-processes.js';

export interface Harness {
  root: string;
  home: string;
  double: OllamaDouble;
  ollama: StartedDouble;
  env: NodeJS.ProcessEnv;
  /** A folder with a package.json, so it resolves to its own project namespace. */
  project(name: string): string;
  /** Writes a Claude Code transcript whose user asks for the given rules. */
  session(name: string, rules: readonly string[], options?: { padding?: number }): string;
  close(): Promise<void>;
}

/** Words the test sessions use, so the tiny model knows them (unknown words all look alike). */
const TEST_WORDS = ['pnpm', 'npm', 'yarn', 'postgresql', 'cents', 'bigint', 'service', 'deploy', 'blue', 'green', 'release', 'integration', 'tests', 'tabs', 'spaces', 'lockfile', 'migrations', 'docker', 'compose', 'refund', 'endpoint', 'you', 'must', 'never', 'always', 'use'];

export async function startHarness(options: { embedder?: 'tiny' | 'hash'; double?: OllamaDoubleOptions; env?: Record<string, string> } = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'recall-it-'));
  const home = join(root, 'home');
  const double = new OllamaDouble(options.double);
  const ollama = await double.start();
  let embedder = 'hash';
  if ((options.embedder ?? 'tiny') === 'tiny') {
    const model = await buildTinyModel(join(root, 'models'), { vocab: [...DEFAULT_TINY_VOCAB, ...TEST_WORDS, ...range(0, 100).map(String)] });
    embedder = `transformers:${model.dir}`;
  }
  const env = baseEnv({
    RECALL_HOME: home,
    OLLAMA_HOST: ollama.url,
    RECALL_OLLAMA_LLM_MODEL: 'llama3.2:3b',
    RECALL_EMBEDDER: embedder,
    RECALL_ALLOW_MODEL_DOWNLOAD: 'false',
    RECALL_OLLAMA_TIMEOUT_MS: '10000',
    RECALL_LOCK_STALE_MS: '5000',
    ...options.env,
  });
  return {
    root,
    home,
    double,
    ollama,
    env,
    project(name) {
      const dir = join(root, 'projects', name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name }));
      return dir;
    },
    session(name, rules, { padding = 0 } = {}) {
      const file = join(root, 'transcripts', `${name}.jsonl`);
      mkdirSync(join(root, 'transcripts'), { recursive: true });
      writeFileSync(file, claudeTranscript(name, rules, padding));
      return file;
    },
    async close() {
      await ollama.close();
      // A detached worker a hook started may still be writing its log or queue there: let it end first.
      await settleProcessesOf(root);
      rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
    },
  };
}

/** A small but real-shaped Claude Code session: user rules, a tool call and its result, an answer. */
export function claudeTranscript(sessionId: string, rules: readonly string[], padding = 0): string {
  const common = { isSidechain: false, userType: 'external', cwd: '/work/x', sessionId, version: '2.1.39' };
  const lines = [
    { type: 'progress', data: { type: 'hook_progress', hookEvent: 'SessionStart' }, ...common, uuid: 'p0' },
    { type: 'user', message: { role: 'user', content: `Please set the project up. ${rules.join(' ')}` }, ...common, uuid: 'u1' },
    {
      type: 'assistant',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls -la' } }] },
      ...common,
      uuid: 'a1',
    },
    {
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `total 8\n${'x'.repeat(padding)}` }] },
      toolUseResult: { stdout: 'total 8', stderr: '', interrupted: false, isImage: false },
      ...common,
      uuid: 'u2',
    },
    { type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'Done: the project follows those rules now.' }] }, ...common, uuid: 'a2' },
  ];
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
