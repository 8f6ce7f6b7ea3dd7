/** `recall search`, `list`, `show`, `add`, `forget` and `stats` through the built CLI, against a real store. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFilePath } from '../../src/context/context-file.js';
import { resolveProject } from '../../src/project/resolve-project.js';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { DAY, HOUR, ago, seedFile } from '../support/memory-file.js';

interface Hit {
  id: string;
  content: string;
  type: string;
  namespace: string;
  score: number;
  vector_score: number | null;
  text_score: number | null;
  importance: number;
  created_at: string;
  session_id: string | null;
}

let h: Harness;
let shop: string;
let shopNs: string;
let apiNs: string;
let otherApiNs: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  shop = h.project('shop');
  shopNs = resolveProject(shop).namespace;
  apiNs = resolveProject(h.project('api')).namespace;
  const otherApi = join(h.root, 'elsewhere', 'api');
  mkdirSync(otherApi, { recursive: true });
  writeFileSync(join(otherApi, 'package.json'), '{}');
  otherApiNs = resolveProject(otherApi).namespace;
  env = { ...h.env, RECALL_HOME: join(h.root, 'home-search') };
  const file = join(h.root, 'seed.jsonl');
  writeFileSync(
    file,
    seedFile([
      { id: 'm1', content: 'You MUST use pnpm for installs, never npm.', type: 'golden_rule', namespace: shopNs, projectRoot: shop, createdAt: '2024-01-01T00:00:00.000Z' },
      { id: 'm2', content: 'Store money as integer cents in a BIGINT column.', type: 'decision', namespace: shopNs, projectRoot: shop, createdAt: ago(HOUR) },
      { id: 'm3', content: 'Retry outgoing calls on E_CONNRESET with exponential backoff.', type: 'pattern', namespace: apiNs, createdAt: ago(2 * DAY), sessionId: 'sess-9' },
      { id: 'm4', content: 'Checkout error E1234 means the cart total overflowed.', type: 'pattern', namespace: apiNs, createdAt: ago(10 * DAY) },
      { id: 'm5', content: 'Write commit messages in the imperative mood.', namespace: 'global', createdAt: ago(3 * HOUR) },
      { id: 'm6', content: 'The other api service indents its Makefile with tabs.', namespace: otherApiNs, createdAt: ago(DAY) },
    ]),
  );
  const seeded = await runCli(['import', file], { env });
  expect(seeded.stderr).toBe('');
  expect(seeded.exitCode).toBe(0);
});

afterAll(async () => {
  await h.close();
});

/** Runs a command that must succeed and parses its JSON output. */
async function json<T>(args: string[], options: { cwd?: string } = {}): Promise<T> {
  const result = await runCli(args, { env, cwd: options.cwd });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** A search's hits with every field (--full). */
async function search(args: string[], options: { cwd?: string } = {}): Promise<Hit[]> {
  const result = await runCli(['search', ...args, '--full'], { env, cwd: options.cwd });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as Hit[];
}

async function expectOneLineError(args: string[], message: RegExp | string): Promise<void> {
  const result = await runCli(args, { env });
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toBe('');
  const first = result.stderr.split('\n')[0] ?? '';
  expect(first.startsWith('recall: ')).toBe(true);
  if (typeof message === 'string') expect(first).toBe(`recall: ${message}`);
  else expect(first).toMatch(message);
}

describe('recall search', () => {
  it('finds an exact error code first, with every documented JSON field', async () => {
    const [top] = await search(['E_CONNRESET']);
    expect(top).toMatchObject({ id: 'm3', type: 'pattern', namespace: apiNs, importance: 0.7, session_id: 'sess-9', text_score: 1 });
    expect(top!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(top!.score).toBeGreaterThan(0.5);
    expect(top!.score).toBeLessThanOrEqual(1);
  });

  it('ranks by text alone, by vector alone, or fused, as --mode asks', async () => {
    const text = await search(['BIGINT', '--mode', 'text']);
    expect(text.map((h) => [h.id, h.score, h.vector_score])).toEqual([['m2', 1, null]]);
    const vector = await search(['BIGINT', 'column', '--mode', 'vector']);
    expect(vector[0]?.id).toBe('m2');
    expect(vector.every((h) => h.text_score === null && h.score === h.vector_score)).toBe(true);
    const hybrid = await search(['BIGINT', 'column']);
    expect(hybrid[0]).toMatchObject({ id: 'm2', text_score: 1 });
    // The hash embedder is lexical: its side weighs 0.3, the text side 0.7.
    expect(hybrid[0]!.score).toBeCloseTo(0.3 * vector[0]!.score + 0.7, 2);
    // Every hit has both scores, whichever side found it.
    expect(hybrid.every((h) => h.vector_score !== null && h.text_score !== null)).toBe(true);
  });

  it('prints compact JSON by default: one hit per line, the fields an agent needs, scores to 3 places', async () => {
    const result = await runCli(['search', 'pnpm', 'money', 'retry', '--json'], { env });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('[');
    expect(lines.at(-1)).toBe(']');
    const hits = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(hits.length).toBeGreaterThan(1);
    expect(lines).toHaveLength(hits.length + 2);
    for (const [i, hit] of hits.entries()) {
      expect(Object.keys(hit)).toEqual(['id', 'score', 'type', 'namespace', 'created_at', 'content']);
      expect(String(hit.score)).toMatch(/^(0|1)(\.\d{1,3})?$/);
      expect(JSON.parse(lines[i + 1]!.replace(/,$/, ''))).toEqual(hit);
    }
  });

  it('prints the fields --fields names, in that order, and refuses a field it does not know', async () => {
    const hits = JSON.parse((await runCli(['search', 'pnpm', '--fields', 'content,id,vector_score'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(hits.length).toBeGreaterThan(0);
    expect(Object.keys(hits[0]!)).toEqual(['content', 'id', 'vector_score']);
    await expectOneLineError(['search', 'pnpm', '--fields', 'id,colour'], /^recall: --fields: unknown field colour; use some of id, score, /);
  });

  it('filters by namespace, project name, project path, the current project, type and age', async () => {
    const ids = (hits: Hit[]) => hits.map((h) => h.id).sort();
    expect(ids(await search(['api', 'makefile', 'tabs', 'retry', 'error', '--namespace', otherApiNs]))).toEqual(['m6']);
    expect(ids(await search(['retry', 'makefile', 'checkout', '--project', 'api']))).toEqual(['m3', 'm4', 'm6']);
    expect(ids(await search(['pnpm', 'money', '--project', shop]))).toEqual(['m1', 'm2']);
    expect(ids(await search(['pnpm', 'money', 'retry', '--here'], { cwd: shop }))).toEqual(['m1', 'm2']);
    expect(ids(await search(['error', 'retry', 'pnpm', '--type', 'pattern']))).toEqual(['m3', 'm4']);
    expect(ids(await search(['money', 'pnpm', 'commit', '--since', '1d']))).toEqual(['m2', 'm5']);
    expect(ids(await search(['pnpm', 'money', '--mode', 'text', '--since', '2024-01-02']))).toEqual(['m2']);
  });

  it('drops results under --min-score and returns at most --limit', async () => {
    const all = await search(['pnpm', 'money', 'commit', 'retry']);
    expect(all.length).toBeGreaterThan(2);
    expect(await search(['pnpm', 'money', 'commit', 'retry', '--limit', '2'])).toHaveLength(2);
    const strong = await search(['pnpm', 'money', 'commit', 'retry', '--min-score', '0.45']);
    expect(strong.length).toBeLessThan(all.length);
    expect(strong.every((h) => h.score >= 0.45)).toBe(true);
  });

  it('prints a header and one tab-separated line per hit, without colour codes, when stdout is not a terminal', async () => {
    const result = await runCli(['search', 'pnpm'], { env });
    expect(result.exitCode).toBe(0);
    const [head, first] = result.stdout.split('\n');
    expect(head).toBe('score\tid\ttype\tproject\tage\tcontent');
    expect(first).toMatch(/^\d\.\d\d\tm1\tgolden_rule\tshop\t[^\t]+\tYou MUST use pnpm for installs, never npm\.$/);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('rejects bad input with one line and exit 1', async () => {
    await expectOneLineError(['search', ''], 'the search query is empty');
    await expectOneLineError(['search', 'x'.repeat(100 * 1024)], 'the search query is 102400 characters; the limit is 2000');
    await expectOneLineError(['search', 'pnpm', '--namespace', 'project:shop'], `unknown namespace "project:shop"; did you mean ${shopNs}?`);
    await expectOneLineError(['search', 'pnpm', '--project', 'shp'], 'unknown project "shp"; did you mean shop?');
    await expectOneLineError(['search', 'pnpm', '--limit', '-3'], '--limit must be a positive whole number, got "-3"');
    await expectOneLineError(['search', 'pnpm', '--limit', '0'], '--limit must be a positive whole number, got "0"');
    await expectOneLineError(['search', 'pnpm', '--since', 'last week'], /--since "last week" is not a date or a span/);
    await expectOneLineError(['search', 'pnpm', '--min-score', '1.5'], '--min-score must be a number from 0 to 1, got "1.5"');
    await expectOneLineError(['search', 'pnpm', '--mode', 'fuzzy'], /argument 'fuzzy' is invalid/);
    await expectOneLineError(['search', 'pnpm', '--type', 'rule'], /^recall: unknown type "rule"; use one of golden_rule/);
    await expectOneLineError(['search', 'pnpm', '--here', '--namespace', 'global'], 'use only one of --namespace, --project and --here');
  });
});

describe('recall list and show', () => {
  it('lists with the same filters as search, newest first', async () => {
    const list = (args: string[]) => json<Hit[]>(['list', '--json', ...args]);
    expect((await list(['--project', 'shop'])).map((m) => m.id)).toEqual(['m2', 'm1']);
    expect((await list(['--since', '1d'])).map((m) => m.id)).toEqual(['m2', 'm5']);
    expect((await list(['--project', 'api', '--type', 'pattern'])).map((m) => m.id)).toEqual(['m3', 'm4']);
    await expectOneLineError(['list', '--namespace', 'nope'], /^recall: unknown namespace "nope"/);
  });

  it('shows every field of one memory, and names an unknown id', async () => {
    expect(await json(['show', 'm3', '--json'])).toMatchObject({
      id: 'm3', content: 'Retry outgoing calls on E_CONNRESET with exponential backoff.', type: 'pattern', namespace: apiNs,
      importance: 0.7, embedder: 'hash:384', project_root: null, session_id: 'sess-9', source: 'test', seen_count: 1,
    });
    const human = await runCli(['show', 'm3'], { env });
    expect(human.stdout).toMatch(/^id {9}m3\n/);
    expect(human.stdout).toContain('embedder   hash:384');
    await expectOneLineError(['show', 'no-such-id'], 'no memory with id no-such-id (`recall list` and `recall search` show the ids)');
  });
});

describe('recall add', () => {
  it('stores a redacted manual memory in the current project, refreshes its context, and reports a repeat as a match', async () => {
    const text = 'Deploy previews with DEPLOY_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 from the CI secrets.';
    const first = await runCli(['add', text, '--type', 'decision', '--here', '--json'], { env, cwd: shop });
    expect(first.stderr).toBe('');
    expect(first.exitCode).toBe(0);
    const stored = JSON.parse(first.stdout) as { status: string; id: string; namespace: string; redactions: number };
    expect(stored).toMatchObject({ status: 'stored', namespace: shopNs, redactions: 1 });
    const shown = await json<{ content: string; source: string; project_root: string }>(['show', stored.id, '--json']);
    expect(shown.content).not.toContain('ghp_');
    expect(shown).toMatchObject({ source: 'manual', project_root: resolveProject(shop).root });
    const context = contextFilePath(join(env.RECALL_HOME!, 'context'), shopNs);
    expect(existsSync(context)).toBe(true);
    expect(readFileSync(context, 'utf8')).toContain('Deploy previews');

    const again = await json<{ status: string; id: string }>(['add', text, '--type', 'decision', '--here', '--json'], { cwd: shop });
    expect(again).toMatchObject({ status: 'matched', id: stored.id });
    expect(await json(['show', stored.id, '--json'])).toMatchObject({ seen_count: 2 });
  });

  it('refuses --here in a folder that belongs to no project rather than filing the memory for every project', async () => {
    const loose = join(h.root, 'loose', 'notes');
    mkdirSync(loose, { recursive: true });
    const result = await runCli(['add', 'You MUST keep notes short.', '--here'], { env, cwd: loose });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^recall: --here: .*notes is not inside a project \(no \.git, package\.json.*\); nothing was stored\. Without --here the memory is kept for every project\n$/);
    expect(await json<Hit[]>(['search', 'notes', 'short', '--mode', 'text', '--json'])).toEqual([]);
  });

  it('stores in global by default and refuses an empty text, a secret-only text or an unknown namespace', async () => {
    const added = await json<{ namespace: string }>(['add', 'Prefer', 'small', 'pull', 'requests.', '--json']);
    expect(added.namespace).toBe('global');
    const found = await json<Hit[]>(['search', 'pull', 'requests', '--mode', 'text', '--json']);
    expect(found.map((h) => h.content)).toEqual(['Prefer small pull requests.']);
    await expectOneLineError(['add', '  '], 'the memory text is empty');
    // A text that is nothing but a secret would store no rule, only a redaction mark.
    await expectOneLineError(['add', 'AKIAIOSFODNN7EXAMPLE'], /^recall: the text is only a secret, and recall stores no secrets/);
    await expectOneLineError(['add', 'x', '--namespace', 'project:nope-00000000'], /^recall: unknown namespace "project:nope-00000000"/);
    await expectOneLineError(['add', 'x', '--type', 'rule'], /argument 'rule' is invalid/);
  });
});

describe('recall forget', () => {
  it('refuses unknown ids by name and deletes nothing, then forgets known ones', async () => {
    await expectOneLineError(['forget', 'm5', 'ghost-1', 'ghost-2'], 'no memory with id ghost-1, ghost-2 (`recall list` and `recall search` show the ids); nothing was forgotten');
    expect((await runCli(['show', 'm5', '--json'], { env })).exitCode).toBe(0);
    expect(await json(['forget', 'm5', '--json'])).toEqual({ forgotten: ['m5'] });
    expect((await runCli(['show', 'm5'], { env })).exitCode).toBe(1);
  });

  it('empties a namespace only with --yes when no terminal can confirm', async () => {
    await expectOneLineError(['forget', '--namespace', otherApiNs, '--all'], `refusing to forget all 1 memories of ${otherApiNs} without --yes (no terminal to confirm on)`);
    expect((await runCli(['show', 'm6'], { env })).exitCode).toBe(0);
    expect(await json(['forget', '--namespace', otherApiNs, '--all', '--yes', '--json'])).toEqual({ namespace: otherApiNs, forgotten: 1 });
    await expectOneLineError(['forget', '--all'], '--all needs --namespace NS');
    await expectOneLineError(['forget'], 'give the id(s) of the memories to forget, or --namespace NS --all');
  });
});

describe('recall stats', () => {
  it('counts memories by project and type and reports the database size and embedder', async () => {
    const result = await runCli(['stats', '--json'], { env });
    expect(result.exitCode).toBe(0);
    const stats = JSON.parse(result.stdout) as {
      memories: number;
      byType: Record<string, number>;
      namespaces: Array<{ namespace: string; project: string; total: number; byType: Record<string, number> }>;
      db: { bytes: number };
      embedder: { store: string; dimension: number; configured: string };
      lastCapture: unknown;
    };
    const shopStats = stats.namespaces.find((n) => n.namespace === shopNs);
    expect(shopStats).toMatchObject({ project: 'shop', byType: { golden_rule: 1, decision: 2 }, total: 3 });
    expect(stats.memories).toBe(stats.namespaces.reduce((sum, n) => sum + n.total, 0));
    expect(stats.byType.pattern).toBe(2);
    expect(stats.db.bytes).toBeGreaterThan(0);
    expect(stats.embedder).toEqual({ store: 'hash:384', dimension: 384, configured: 'hash:384' });
    expect(stats.lastCapture).toBeNull();
    const human = await runCli(['stats'], { env });
    expect(human.stdout).toMatch(/^memories {3}\d+ in \d+ namespaces\n/);
    expect(human.stdout).toMatch(/\nproject\s+golden_rule\s+preference\s+decision\s+pattern\s+total\s+namespace/);
  });
});

describe('help', () => {
  it('prints usage and exits 0 for every search and management command', async () => {
    for (const command of ['search', 'list', 'show', 'add', 'forget', 'export', 'import', 'stats', 'reindex']) {
      const result = await runCli([command, '--help'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(`Usage: recall ${command}`);
    }
  });
});
