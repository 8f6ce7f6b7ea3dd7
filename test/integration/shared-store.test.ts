/**
 * A store shared by several machines through an S3-compatible object store (`store.uri = s3://...`).
 * Two "machines" are two state dirs (their own config, queue and local locks) pointing at one bucket
 * of an S3-protocol server on 127.0.0.1; every command runs as the built CLI in a real subprocess.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { runCli, runHook, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { S3Double } from '../support/s3-double.js';

interface ListedMemory {
  id: string;
  content: string;
  seen_count: number;
  namespace: string;
}

let h: Harness;
let s3: S3Double;
let endpoint: string;

beforeEach(async () => {
  h = await startHarness({ embedder: 'hash' });
  s3 = new S3Double();
  endpoint = (await s3.start()).url;
});

afterEach(async () => {
  await s3.close();
  await h.close();
});

/** The environment of one machine: its own state dir, the shared store. */
function machine(name: string, store: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...h.env,
    RECALL_HOME: join(h.root, `machine-${name}`),
    RECALL_STORE_URI: 's3://recall/team-a',
    RECALL_S3_ENDPOINT: endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    RECALL_HOOK_SPAWN: 'false',
    ...store,
  };
}

async function listAll(env: NodeJS.ProcessEnv): Promise<ListedMemory[]> {
  const listed = await runCli(['list', '--json', '--limit', '1000'], { env });
  expect(listed.stderr).toBe('');
  return JSON.parse(listed.stdout) as ListedMemory[];
}

describe('a store in an S3-compatible object store', () => {
  it('keeps memories in the bucket, not the state dir, and serves add, search, list, stats and doctor from it', async () => {
    const env = machine('a');
    const added = await runCli(['add', 'You MUST use pnpm, never npm.', '--namespace', 'global', '--json'], { env });
    expect(added.exitCode, added.stderr).toBe(0);

    const found = JSON.parse((await runCli(['search', 'pnpm', '--json'], { env })).stdout) as ListedMemory[];
    expect(found.map((m) => m.content)).toEqual(['You MUST use pnpm, never npm.']);
    expect(s3.keys('recall', 'team-a/memories.lance/').length).toBeGreaterThan(0);
    expect(existsSync(join(env.RECALL_HOME as string, 'db'))).toBe(false);

    const stats = JSON.parse((await runCli(['stats', '--json'], { env })).stdout) as { memories: number; db: { path: string; bytes: number | null } };
    expect(stats).toMatchObject({ memories: 1, db: { path: `s3://recall/team-a at ${endpoint}`, bytes: null } });

    const doctor = await runCli(['doctor', '--json'], { env });
    const store = (JSON.parse(doctor.stdout) as { checks: { id: string; status: string; detail: string }[] }).checks.find((c) => c.id === 'store');
    expect(store).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^1 memories/) });
  });

  it('lets two machines write at once and stores every memory exactly once', async () => {
    const a = machine('a');
    const b = machine('b');
    // Rules far apart in meaning, so that only a real duplicate is ever merged.
    const rules = [
      'You MUST use pnpm, never npm.',
      'Store money as integer cents in a BIGINT column.',
      'Deploys go blue-green through the release pipeline.',
      'Integration tests run against a real PostgreSQL in Docker Compose.',
      'Indent with two spaces; tabs are refused by the linter.',
      'Every refund endpoint checks the idempotency key first.',
    ];
    // Each machine adds every rule, both at the same time: each add is a dedupe check then a write.
    const results = await Promise.all(rules.flatMap((rule) => [a, b].map((env) => runCli(['add', rule, '--namespace', 'global'], { env }))));
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);

    const stored = await listAll(a);
    expect(stored.map((m) => m.content).sort()).toEqual([...rules].sort());
    // The second writer of each rule found the first one's row and reinforced it.
    expect(stored.map((m) => m.seen_count)).toEqual(rules.map(() => 2));
    expect((await listAll(b)).map((m) => m.id).sort()).toEqual(stored.map((m) => m.id).sort());
    // Both machines took the writer lease in the bucket.
    expect(s3.keys('recall', 'team-a/.recall/')).toContain('team-a/.recall/store.lease');
  }, 120_000);

  it('captures sessions ended on two machines into one store, each rule once', async () => {
    const a = machine('a');
    const b = machine('b');
    const project = h.project('shop');
    const shared = ['You MUST store money as integer cents.', 'You MUST use pnpm.'];
    const sessions = [
      { env: a, id: 'a-1', rules: [shared[0] as string, 'You MUST run migrations in CI.'] },
      { env: b, id: 'b-1', rules: [shared[0] as string, shared[1] as string] },
      { env: a, id: 'a-2', rules: [shared[1] as string] },
      { env: b, id: 'b-2', rules: ['You MUST never deploy on Fridays.', shared[0] as string] },
    ];
    for (const s of sessions) {
      const hook = await runHook('session-end', { session_id: s.id, transcript_path: h.session(s.id, s.rules), cwd: project, hook_event_name: 'SessionEnd', reason: 'other' }, { env: s.env });
      expect(hook.exitCode).toBe(0);
    }
    const drains = await Promise.all([runCli(['drain', '--json'], { env: a }), runCli(['drain', '--json'], { env: b })]);
    for (const d of drains) expect(d.exitCode, d.stderr).toBe(0);

    const stored = (await listAll(b)).filter((m) => m.namespace.startsWith('project:shop-'));
    const contents = stored.map((m) => m.content).sort();
    expect(contents).toEqual(['You MUST never deploy on Fridays.', 'You MUST run migrations in CI.', 'You MUST store money as integer cents.', 'You MUST use pnpm.']);
    const cents = stored.find((m) => m.content === shared[0]);
    expect(cents?.seen_count).toBe(3);
  }, 120_000);

  it('runs store upkeep on the shared store too: the detached maintenance process gets the credentials and builds the vector index', async () => {
    const env: NodeJS.ProcessEnv = { ...machine('a'), RECALL_VECTOR_INDEX_MIN_ROWS: '300', RECALL_OPTIMIZE_EVERY_VERSIONS: '2', RECALL_DEDUPE_THRESHOLD: '0.999' };
    const embedder = createHashEmbedder();
    const texts = Array.from({ length: 400 }, (_, i) => `earlier rule ${i}: prefer option ${(i * 7919) % 997} in module ${(i * 31) % 211}`);
    const vectors = await embedder.embed(texts);
    const at = new Date().toISOString();
    const lines = texts.map((content, i) => JSON.stringify({
      id: `prefill${i}`, content, type: 'pattern', importance: 0.5, namespace: 'global', project_root: null, session_id: null, source: 'test',
      embedder: embedder.id, created_at: at, last_seen_at: at, seen_count: 1, vector: [...(vectors[i] as Float32Array)],
    }));
    const file = join(h.root, 'prefill.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect((await runCli(['import', file], { env })).exitCode).toBe(0);

    const project = h.project('upkeep');
    await runHook('session-end', { session_id: 'up-1', transcript_path: h.session('up-1', ['You MUST use pnpm, never npm.']), cwd: project }, { env });
    expect((await runCli(['drain'], { env })).exitCode).toBe(0);
    const log = join(env.RECALL_HOME as string, 'recall.log');
    // The import started it (400 rows, past the 300 set here), or the capture after it did.
    const line = await waitFor(() => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').find((l) => l.includes('"component":"maintain"') && l.includes('"vectorIndex":"built"')) : undefined));
    expect((JSON.parse(line) as { rows: number }).rows).toBeGreaterThanOrEqual(400);
    expect(readFileSync(log, 'utf8')).not.toContain(s3.secretAccessKey);
    expect(s3.keys('recall', 'team-a/memories.lance/_indices/').length).toBeGreaterThan(0);
  }, 120_000);

  it('queues a capture while the object store is unreachable and stores it once the store is back', async () => {
    const env = machine('a');
    const project = h.project('shop');
    const port = Number(new URL(endpoint).port);
    await s3.close();
    const hook = await runHook('session-end', { session_id: 'down-1', transcript_path: h.session('down-1', ['You MUST use pnpm.']), cwd: project, hook_event_name: 'SessionEnd' }, { env });
    expect(hook.stdout).toBe('{}\n');

    const drained = await runCli(['drain'], { env: { ...env, RECALL_BACKOFF_MS: '1000' } });
    expect(drained.exitCode).toBe(1);
    expect(drained.stdout).toMatch(/: retry, STORE_UNREACHABLE: cannot reach the object store for s3:\/\/recall\/team-a \(ECONNREFUSED\)\n0 captured, 1 to retry, 0 failed\n$/);

    const status = await runCli(['status', '--json'], { env });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      queue: { pending: 1, retrying: 1 },
      memories: null,
      storeProblem: expect.stringMatching(/^STORE_UNREACHABLE: cannot reach the object store/),
      waiting: expect.stringMatching(/^retrying after: STORE_UNREACHABLE/),
    });

    await s3.start(port);
    await waitFor(async () => ((await runCli(['drain', '--json'], { env: { ...env, RECALL_BACKOFF_MS: '1000' } })).exitCode === 0 ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
    expect((await listAll(env)).map((m) => m.content)).toEqual(['You MUST use pnpm.']);
  }, 90_000);

  it('says in one line what is wrong with an unreachable store, refused credentials or a missing bucket', async () => {
    const cases: { store: Record<string, string>; message: RegExp }[] = [
      { store: { RECALL_S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }, message: /^recall: cannot reach the object store for s3:\/\/recall\/team-a \(ECONNREFUSED\)\n$/ },
      { store: { AWS_SECRET_ACCESS_KEY: 'not-the-secret' }, message: /^recall: the object store refused recall's credentials for s3:\/\/recall\/team-a \(HTTP 403 SignatureDoesNotMatch\); check AWS_ACCESS_KEY_ID/ },
      { store: { AWS_ACCESS_KEY_ID: 'nobody' }, message: /\(HTTP 403 InvalidAccessKeyId\)/ },
      { store: { RECALL_STORE_URI: 's3://no-such-bucket/x' }, message: /^recall: the bucket "no-such-bucket" of s3:\/\/no-such-bucket\/x does not exist; create it first\n$/ },
      { store: { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' }, message: /^recall: s3:\/\/recall\/team-a needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/ },
      { store: { RECALL_STORE_URI: 'gs://bucket/x' }, message: /store.uri "gs:\/\/bucket\/x" is not supported/ },
    ];
    for (const c of cases) {
      const env = machine('a', c.store);
      for (const args of [['search', 'pnpm'], ['add', 'You MUST use pnpm.']]) {
        const result = await runCli(args, { env, timeoutMs: 30_000 });
        expect(result.exitCode, `${JSON.stringify(c.store)} ${args[0]}`).toBe(1);
        expect(result.stderr).toMatch(c.message);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).not.toContain(s3.secretAccessKey);
      }
    }
    // Nothing was written anywhere.
    expect(s3.keys('recall', 'team-a/memories.lance/')).toEqual([]);
  }, 120_000);

  it('keeps answering SessionStart from the last rendered context while the object store is down', async () => {
    const env = machine('a');
    const project = h.project('shop');
    await runHook('session-end', { session_id: 's1', transcript_path: h.session('s1', ['You MUST use pnpm.']), cwd: project, hook_event_name: 'SessionEnd' }, { env });
    expect((await runCli(['drain'], { env })).exitCode).toBe(0);
    await s3.close();

    const start = await runHook('session-start', { session_id: 's2', cwd: project, hook_event_name: 'SessionStart', source: 'startup' }, { env });
    const answer = JSON.parse(start.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
    expect(answer.hookSpecificOutput?.additionalContext).toContain('You MUST use pnpm.');
  }, 60_000);

  it('refuses an object store that ignores conditional writes instead of letting two machines overwrite each other', async () => {
    await s3.close();
    s3 = new S3Double({ ignoreConditions: true });
    endpoint = (await s3.start()).url;
    const added = await runCli(['add', 'You MUST use pnpm.', '--namespace', 'global'], { env: machine('a') });
    expect(added.exitCode).toBe(1);
    expect(added.stderr).toMatch(/^recall: the object store of s3:\/\/recall\/team-a ignores conditional writes \(If-None-Match\)/);
    expect(s3.keys('recall', 'team-a/memories.lance/')).toEqual([]);
  });
});

/** A port nothing listens on: one the system just handed out and that was closed again. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
