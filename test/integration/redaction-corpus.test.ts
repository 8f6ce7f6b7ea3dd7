/**
 * The redaction corpus through the real paths, built CLI against the Ollama double: every case as a
 * typed message of a captured session (what reaches the prompt sent to the model, and what the
 * model's echo leaves in the store), every case through `recall add`, and every case through
 * `recall import`, each store read back with `recall export`.
 *
 * RECALL_REDACTION_REPORT=1 prints the figures (held-out set included).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { readCorpus, type SecretCase } from '../support/redaction-corpus.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

/** Every captured session opens with this request, so its extraction call is told from any other call to the model. */
const OPENING = 'Please review the deployment notes below and keep what matters.';
const PER_SESSION = 8; // extract.maxMemories: every echoed case of a session is kept
const report = process.env.RECALL_REDACTION_REPORT === '1';

function marker(set: string, index: number): string {
  return `case-${set}${index}-end`;
}

function transcript(sessionId: string, cases: { tag: string; text: string }[]): string {
  const common = { isSidechain: false, userType: 'external', cwd: '/work/x', sessionId, version: '2.1.39' };
  // A session too short is not captured at all (transcript.minChars): an opening request pads it.
  const opening = { type: 'user', message: { role: 'user', content: `${OPENING} ${'The service runs on port 8080 behind the proxy. '.repeat(4)}` }, ...common, uuid: 'u-open' };
  const lines = [opening, ...cases.flatMap(({ tag, text }, i) => [
    { type: 'user', message: { role: 'user', content: `${tag}\n${text}` }, ...common, uuid: `u${i}` },
    { type: 'assistant', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] }, ...common, uuid: `a${i}` },
  ])];
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

interface Scored {
  measured: number;
  leaked: SecretCase[];
}

/** Cases whose tag reached `text` count as measured; of those, the ones with a secret left in it leaked. */
function score(cases: SecretCase[], tags: string[], text: string): Scored {
  const measured = cases.filter((_, i) => text.includes(tags[i]!));
  return { measured: measured.length, leaked: measured.filter((c) => c.secrets.some((s) => text.includes(s))) };
}

async function exported(env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runCli(['export', '--include-held'], { env });
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

async function throughCapture(cases: SecretCase[], set: string): Promise<{ prompt: Scored; store: Scored }> {
  const env = { ...h.env, RECALL_HOME: join(h.root, `capture-${set || 'corpus'}`) };
  const tags = cases.map((_, i) => marker(set, i));
  const project = h.project(`redaction-${set || 'corpus'}`);
  let prompts = '';
  for (let start = 0; start < cases.length; start += PER_SESSION) {
    const batch = cases.slice(start, start + PER_SESSION).map((c, i) => ({ tag: tags[start + i]!, text: c.text }));
    const file = join(h.root, 'transcripts', `redaction-${set}${start}.jsonl`);
    mkdirSync(join(h.root, 'transcripts'), { recursive: true });
    writeFileSync(file, transcript(`r-${set}${start}`, batch));
    h.double.requests.length = 0;
    // The model echoes every case whole, secrets included: the store must still not keep them.
    h.double.reply = () => JSON.stringify({ memories: batch.map((b) => ({ content: `Remember ${b.tag}:\n${b.text}`, type: 'preference' })) });
    const result = await runCli(['capture', file, '--cwd', project, '--session-id', `r-${set}${start}`, '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    // The capture's own extraction call: a judge call of another process cannot be taken for it.
    const request = h.double.requestsTo('/api/chat').find((r) => JSON.stringify(r.body).includes(OPENING));
    expect(request, `no model call for cases ${start}-${start + batch.length - 1}: ${result.stdout}`).toBeDefined();
    const chat = request!.body as { messages: Array<{ content: string }> };
    prompts += chat.messages.map((m) => m.content).join('\n');
  }
  return { prompt: score(cases, tags, prompts), store: score(cases, tags, await exported(env)) };
}

async function throughAdd(cases: SecretCase[], set: string): Promise<Scored> {
  const env = { ...h.env, RECALL_HOME: join(h.root, `add-${set || 'corpus'}`) };
  const tags = cases.map((_, i) => marker(set, i));
  for (let i = 0; i < cases.length; i += 1) {
    const result = await runCli(['add', `${tags[i]}\n${cases[i]!.text}`], { env });
    expect(result.exitCode, result.stderr).toBe(0);
  }
  return score(cases, tags, await exported(env));
}

async function throughImport(cases: SecretCase[], set: string): Promise<Scored> {
  const env = { ...h.env, RECALL_HOME: join(h.root, `import-${set || 'corpus'}`) };
  const tags = cases.map((_, i) => marker(set, i));
  const now = new Date().toISOString();
  const lines = cases.map((c, i) =>
    JSON.stringify({
      id: `01J0000000000000000000${String(i).padStart(4, '0')}`, content: `${tags[i]}\n${c.text}`, type: 'preference', namespace: 'global',
      importance: 0.5, embedder: 'hash:384', project_root: null, session_id: null, source: 'manual', created_at: now, last_seen_at: now, seen_count: 1,
    }),
  );
  const file = join(h.root, `import-${set || 'corpus'}.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  const result = await runCli(['import', file], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  return score(cases, tags, await exported(env));
}

function describeScore(name: string, s: Scored): string {
  return `${name}: ${s.measured - s.leaked.length}/${s.measured} redacted${s.leaked.length ? ` (leaked: ${s.leaked.map((c) => c.kind).join(', ')})` : ''}`;
}

describe.each([
  ['the corpus', ''],
  ['the held-out set', 'heldout-'],
] as const)('redaction of %s through the real paths', (_name, set) => {
  const { secrets } = readCorpus(set);

  it('measures the prompt and the store of a capture (the corpus: >= 98% redacted in each)', async () => {
    const { prompt, store } = await throughCapture(secrets, set);
    if (report) console.log(describeScore(`${set}prompt`, prompt), '\n', describeScore(`${set}capture store`, store));
    // Every case reaches the prompt; a few echoes are merged by dedupe (similar short texts) and so never stored.
    expect(prompt.measured).toBe(secrets.length);
    expect(store.measured).toBeGreaterThanOrEqual(secrets.length * 0.7);
    if (set === '') {
      expect(1 - prompt.leaked.length / prompt.measured).toBeGreaterThanOrEqual(0.98);
      expect(1 - store.leaked.length / store.measured).toBeGreaterThanOrEqual(0.98);
    }
  }, 900_000);

  it('measures the store through recall add and recall import (the corpus: >= 98% redacted in each)', async () => {
    const added = await throughAdd(secrets, set);
    const imported = await throughImport(secrets, set);
    if (report) console.log(describeScore(`${set}add`, added), '\n', describeScore(`${set}import`, imported));
    expect(added.measured).toBeGreaterThanOrEqual(secrets.length * 0.7);
    expect(imported.measured).toBeGreaterThanOrEqual(secrets.length * 0.7);
    if (set === '') {
      expect(1 - added.leaked.length / added.measured).toBeGreaterThanOrEqual(0.98);
      expect(1 - imported.leaked.length / imported.measured).toBeGreaterThanOrEqual(0.98);
    }
    // 150-odd `recall add` processes one after another: on a loaded machine this takes minutes.
  }, 1_200_000);
});
