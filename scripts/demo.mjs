// The main job on bundled sample data: a SessionEnd hook hands a real-shaped Claude Code
// transcript to the detached worker, which extracts, redacts, embeds, dedupes and stores
// memories; then search finds them. Run with `npm run demo` (it builds first).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OllamaDouble } from './ollama-double.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
// Hooks run the entry `recall install` writes into agent settings; commands run the `recall` bin.
const hookEntry = join(repo, 'dist/cli/main.js');
const cli = join(repo, 'dist/cli/main.cjs');
const transcript = join(repo, 'data/sample/session.jsonl');
const home = mkdtempSync(join(tmpdir(), 'recall-demo-'));
const project = join(home, 'projects', 'orders-api');
mkdirSync(project, { recursive: true });
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'orders-api', private: true }));

const env = { ...process.env, RECALL_HOME: home };
let replay = null;
if (!(await realOllamaReady(env))) {
  const answer = readFileSync(join(repo, 'data/sample/model-answer.json'), 'utf8');
  replay = new OllamaDouble({ models: ['recorded-answer:latest'], reply: answer });
  const started = await replay.start();
  env.OLLAMA_HOST = started.url;
  env.RECALL_OLLAMA_LLM_MODEL = 'recorded-answer';
  say('No Ollama model configured (RECALL_OLLAMA_LLM_MODEL) or reachable: replaying the recorded');
  say(`model answer in data/sample/model-answer.json from a local Ollama-protocol server at ${started.url}.`);
}
if (!process.env.RECALL_EMBEDDER) {
  env.RECALL_EMBEDDER = 'hash';
  say('Embedder: hash (lexical, no download). Set RECALL_EMBEDDER to use transformers:Xenova/all-MiniLM-L6-v2.');
}
say(`State dir: ${home}\n`);

try {
  step('1. The SessionEnd hook queues the session and returns at once');
  const payload = { session_id: '7c1e3a52-demo', transcript_path: transcript, cwd: project, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' };
  const t0 = performance.now();
  const hook = run(['hook', 'session-end'], JSON.stringify(payload));
  say(`   hook printed ${hook.stdout.trim()} and exited ${hook.status} after ${Math.round(performance.now() - t0)} ms (node start included)`);

  step('2. The detached worker captures it in the background');
  await waitForQueue();
  say(run(['status']).stdout);

  step('3. What was stored (secrets in the transcript were redacted before the model saw them)');
  say(run(['list', '--limit', '10']).stdout);

  step('4. recall search "how do we store money"');
  say(run(['search', 'how do we store money', '--limit', '3']).stdout);

  step('5. The same lessons in a later session are reinforced, not stored twice');
  run(['hook', 'session-end'], JSON.stringify({ ...payload, session_id: '7c1e3a52-demo-2' }));
  await waitForQueue();
  const listed = JSON.parse(run(['list', '--json']).stdout);
  say(`   ${listed.length} memories; seen counts: ${listed.map((m) => m.seen_count).join(', ')}`);

  step('6. The next session in this project starts with them (SessionStart hook)');
  const start = JSON.parse(run(['hook', 'session-start'], JSON.stringify({ session_id: 'next', cwd: project, hook_event_name: 'SessionStart', source: 'startup' })).stdout);
  say(start.hookSpecificOutput?.additionalContext ?? '(no context)');

  say(`\nTry it yourself:  RECALL_HOME=${home} node ${cli} search "money"`);
} finally {
  await replay?.close();
}

function run(args, input = '') {
  const result = spawnSync(process.execPath, [args[0] === 'hook' ? hookEntry : cli, ...args], { env, input, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    throw new Error(`recall ${args.join(' ')} exited ${result.status}`);
  }
  return result;
}

async function waitForQueue() {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const status = JSON.parse(run(['status', '--json']).stdout);
    const { pending, processing, failed } = status.queue;
    if (failed > 0) throw new Error(`capture failed: ${status.failed[0]?.error}`);
    if (pending === 0 && processing === 0 && status.lastCapture) return;
    if (Date.now() > deadline) throw new Error('the worker did not finish within 3 minutes; see recall.log in the state dir');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function realOllamaReady(environment) {
  const model = environment.RECALL_OLLAMA_LLM_MODEL;
  if (!model) return false;
  const host = (environment.OLLAMA_HOST || 'http://127.0.0.1:11434').replace(/\/+$/, '');
  try {
    const res = await fetch(`${/^https?:/.test(host) ? host : `http://${host}`}/api/tags`, { signal: AbortSignal.timeout(2000) });
    const tags = await res.json();
    return tags.models?.some((m) => m.name === model || m.name === `${model}:latest`) ?? false;
  } catch {
    return false;
  }
}

function step(title) {
  say(`\n== ${title}`);
}

function say(text) {
  console.log(text.replace(/\n$/, ''));
}
