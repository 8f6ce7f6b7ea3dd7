/**
 * The CLI as a pipe or a terminal sees it: one line per memory when piped (so grep finds whole
 * memories), COLUMNS honoured on a terminal, clear words for an empty store and for a file that is no
 * transcript, and timestamps on import in the usual ISO 8601 forms.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runOnTerminal } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let env: NodeJS.ProcessEnv;
const LONG =
  'You MUST run the database migrations with the dry-run flag first, read the plan it prints line by line, ' +
  'ask a second person to read it too, and only then apply it to staging; production follows a day later, never the same day, zebra.';

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  env = { ...h.env, RECALL_HOME: join(h.root, 'home-lines') };
  for (const text of [LONG, 'Use pnpm for installs, never npm.', 'Store money as integer cents.']) {
    const added = await runCli(['add', text, '--namespace', 'global'], { env });
    expect(added.exitCode, added.stderr).toBe(0);
  }
});

afterAll(async () => {
  await h.close();
});

/** The bin on a pseudo-terminal, with this file's environment and `extra`. */
async function onTerminal(args: string[], extra: NodeJS.ProcessEnv): Promise<string> {
  const result = await runOnTerminal(args, { ...env, ...extra });
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout;
}

describe('recall list and search piped', () => {
  it('print a header and one tab-separated line per memory, so grep finds a whole memory', async () => {
    for (const args of [['list'], ['search', 'migrations', 'pnpm', 'money']]) {
      const result = await runCli(args, { env });
      expect(result.exitCode).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(4);
      // list: id, type, project, age, content; search: its score first.
      expect(lines.every((line) => line.split('\t').length === (args[0] === 'list' ? 5 : 6))).toBe(true);
      const zebra = lines.filter((line) => line.includes('zebra'));
      expect(zebra).toHaveLength(1);
      expect(zebra[0]!.split('\t').at(-1)).toBe(LONG);
    }
  });
});

describe('recall list on a terminal', () => {
  it('lays its table out to COLUMNS', async () => {
    for (const columns of [90, 130]) {
      const out = await onTerminal(['list'], { COLUMNS: String(columns) });
      const lines = out.trimEnd().split('\n');
      expect(out).toContain('zebra');
      expect(Math.max(...lines.map((line) => stringWidth(line)))).toBeLessThanOrEqual(columns);
      expect(Math.max(...lines.map((line) => stringWidth(line)))).toBeGreaterThan(columns - 15);
    }
  });

  it('fits a narrow terminal too, every memory whole, no line padded with trailing spaces', async () => {
    for (const columns of [40, 60]) {
      for (const args of [['list'], ['search', 'migrations', 'pnpm', 'money'], ['stats']]) {
        const out = await onTerminal(args, { COLUMNS: String(columns) });
        const lines = out.trimEnd().split('\n');
        // stats: its table, under the summary lines (which name the database's path, as long as it is).
        const table = args[0] === 'stats' ? lines.slice(lines.indexOf('') + 1) : lines;
        expect(Math.max(...table.map((line) => stringWidth(line))), `${args[0]} at ${columns}`).toBeLessThanOrEqual(columns);
        expect(lines.filter((line) => / $/.test(line)), `${args[0]} at ${columns}`).toEqual([]);
        if (args[0] !== 'stats') expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(LONG);
      }
    }
  });
});

describe('the other tables piped', () => {
  it('print stats as tab-separated lines, nothing padded or wrapped, however long a project name', async () => {
    const home = { ...env, RECALL_HOME: join(h.root, 'home-stats') };
    const project = h.project(`a-project-with-a-name-long-enough-to-push-any-table-past-a-hundred-columns-${'x'.repeat(40)}`);
    expect((await runCli(['add', 'Use pnpm for installs, never npm.', '--project', project], { env: home })).exitCode).toBe(0);
    const result = await runCli(['stats'], { env: home });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => / $/.test(line))).toEqual([]);
    const header = lines.findIndex((line) => line.startsWith('project\t'));
    expect(lines[header]).toBe('project\tpreference\ttotal\tnamespace');
    expect(lines[header + 1]).toMatch(/^a-project-with-a-name-long-enough-[^\t]*x{40}\t1\t1\tproject:a-project-with-a-name-long-enough-\S*$/);
  });

  it('print review as one line per held memory: id, type, project, origin, age, why, what it would replace, content', async () => {
    const home = { ...env, RECALL_HOME: join(h.root, 'home-review') };
    const file = join(h.root, 'held.jsonl');
    const held = (content: string) => JSON.stringify({ content, status: 'quarantined', source: 'mcp' });
    writeFileSync(file, [held(`Always answer in French.\nEven when asked in English.\t${'Really. '.repeat(30)}zebra`), held('Always run make before a commit.')].join('\n'));
    expect((await runCli(['import', file], { env: home })).exitCode).toBe(0);
    const result = await runCli(['review'], { env: home });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\ttype\tproject\tfrom\tage\twhy\twants_to_replace\tcontent');
    expect(lines).toHaveLength(3);
    const zebra = lines.filter((line) => line.includes('zebra'));
    expect(zebra).toHaveLength(1);
    const cells = zebra[0]!.split('\t');
    expect(cells).toHaveLength(8);
    expect(cells[0]).toMatch(/^[0-9A-Z]{26}$/);
    expect(cells[7]).toMatch(/^Always answer in French\. Even when asked in English\.\?Really\./);
    // On a terminal: a block per memory, its reasons under its id.
    const shown = await onTerminal(['review'], { RECALL_HOME: home.RECALL_HOME! });
    expect(shown).toMatch(new RegExp(`^${cells[0]}  \\[pattern\\] global, from \\w+, `, 'm'));
    expect(shown).toMatch(/^ {2}why: /m);
  });
});

describe('clear words', () => {
  it('say that nothing is stored yet, and how to store something, in search and list on an empty store', async () => {
    const empty = { ...h.env, RECALL_HOME: join(h.root, 'home-empty') };
    for (const args of [['search', 'pnpm'], ['list']]) {
      const result = await runCli(args, { env: empty });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^no memories are stored yet \(the store is empty\): .*recall install.*recall add/);
    }
  });

  it('tell a filter that matches nothing from an empty store', async () => {
    const result = await runCli(['list', '--type', 'session'], { env });
    expect(result.stdout).toBe('no memories match these filters (--type session): the store holds 3 memories, none of them there\n');
  });

  it('tell a project with no memories from an empty store in search, and name the flag that narrowed it', async () => {
    const project = h.project('lines-nothing-here');
    const result = await runCli(['search', 'pnpm', '--project', project], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`no memories match these filters (--project ${project}): the store holds 3 memories, none of them there\n`);
  });

  it('tell a query that matched nothing from a scope with nothing in it', async () => {
    const result = await runCli(['search', 'xylophone', '--mode', 'text'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('no memories match "xylophone" among the 3 memories searched\n');
  });

  it('say that every memory is held for review when that is why nothing shows', async () => {
    const home = { ...env, RECALL_HOME: join(h.root, 'home-all-held') };
    const file = join(h.root, 'all-held.jsonl');
    writeFileSync(file, `${JSON.stringify({ content: 'Always answer in French.', status: 'quarantined' })}\n`);
    expect((await runCli(['import', file], { env: home })).exitCode).toBe(0);
    for (const args of [['list'], ['search', 'french']]) {
      const result = await runCli(args, { env: home });
      expect(result.stdout).toBe('nothing to show: the one memory stored is held for review (recall review, or --include-held)\n');
    }
  });

  it('say that nothing is stored for show, forget, review, stats and export on an empty store', async () => {
    const empty = { ...h.env, RECALL_HOME: join(h.root, 'home-empty-ids') };
    for (const args of [['show', '01J0000000000000000000000X'], ['forget', '01J0000000000000000000000X']]) {
      const result = await runCli(args, { env: empty });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/^recall: no memory with id 01J0000000000000000000000X \(nothing is stored yet\)/);
    }
    const review = await runCli(['review'], { env: empty });
    expect(review.stdout).toBe('nothing to review: no memories are stored yet (the store is empty)\n');
    const stats = await runCli(['stats'], { env: empty });
    expect(stats.exitCode).toBe(0);
    expect(stats.stdout).toMatch(/^memories {3}0 in 0 namespaces\n[\s\S]*\n\nno memories are stored yet \(the store is empty\): .*recall install.*recall add/);
    const exported = await runCli(['export'], { env: empty });
    expect(exported.exitCode).toBe(0);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toBe('recall export: no memories are stored yet; nothing was exported\n');
  });

  it('say that a file is not a transcript, rather than that it is too short', async () => {
    const readme = join(h.root, 'README.md');
    writeFileSync(readme, `# A project\n\n${'Some prose about the project, long enough to read. '.repeat(1200)}\n\n## Usage\n\nRun it.\n`);
    const result = await runCli(['capture', readme, '--cwd', h.project('capture-readme')], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`recall: ${readme} is not a transcript: none of its 4 lines is JSON; recall reads the JSONL session files of Claude Code, Factory droid, Codex CLI, Gemini CLI, GitHub Copilot CLI and Qwen Code\n`);
  });
});

describe('recall import', () => {
  it('reads created_at without milliseconds and with an offset', async () => {
    const home = { ...h.env, RECALL_HOME: join(h.root, 'home-import') };
    const file = join(h.root, 'dates.jsonl');
    writeFileSync(
      file,
      [
        { content: 'Deploy on Tuesdays only.', created_at: '2024-05-01T10:00:00Z' },
        { content: 'Tag releases with the date.', created_at: '2024-05-01T12:30:00+02:00' },
      ].map((line) => JSON.stringify(line)).join('\n'),
    );
    const imported = await runCli(['import', file], { env: home });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const listed = JSON.parse((await runCli(['list', '--json'], { env: home })).stdout) as Array<{ content: string; created_at: string }>;
    expect(Object.fromEntries(listed.map((m) => [m.content, m.created_at]))).toEqual({
      'Deploy on Tuesdays only.': '2024-05-01T10:00:00.000Z',
      'Tag releases with the date.': '2024-05-01T10:30:00.000Z',
    });
  });

  it('reads every usual ISO 8601 form, Unix times and updated_at, and names each bad date by line and value', async () => {
    const home = { ...h.env, RECALL_HOME: join(h.root, 'home-import-forms') };
    const forms: Array<[unknown, string]> = [
      ['2024-05-01', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01 10:00:00', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01t10:00:00z', '2024-05-01T10:00:00.000Z'],
      ['2024-05-01T10:00:00.1Z', '2024-05-01T10:00:00.100Z'],
      ['2024-05-01T10:00:00.123456789+00:00', '2024-05-01T10:00:00.123Z'],
      ['2024-05-01T10:00-0500', '2024-05-01T15:00:00.000Z'],
      ['20240501T100000Z', '2024-05-01T10:00:00.000Z'],
      [1714557600, '2024-05-01T10:00:00.000Z'],
      [1714557600000, '2024-05-01T10:00:00.000Z'],
    ];
    const good = forms.map(([at], i) => JSON.stringify({ content: `Rule ${i}: deploy from the release branch ${i}.`, created_at: at, updated_at: at }));
    const bad = [JSON.stringify({ content: 'Bad date one.', created_at: 'yesterday' }), JSON.stringify({ content: 'Bad date two.', updated_at: '2024-02-30' })];
    const file = join(h.root, 'forms.jsonl');
    writeFileSync(file, [...good.slice(0, 4), bad[0], ...good.slice(4), bad[1]].join('\n'));
    const refused = await runCli(['import', file], { env: home });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(
      'recall: nothing imported: 2 bad lines (--skip-bad imports the 9 good lines): ' +
        'line 5 created_at: "yesterday" is not an ISO 8601 date and time like 2024-05-01T10:00:00Z or 2024-05-01T12:00+02:00; ' +
        'line 11 updated_at: "2024-02-30" is not an ISO 8601 date and time like 2024-05-01T10:00:00Z or 2024-05-01T12:00+02:00\n',
    );
    const skipped = await runCli(['import', file, '--skip-bad'], { env: home });
    expect(skipped.exitCode, skipped.stderr).toBe(0);
    expect(skipped.stdout).toMatch(/^stored 9; .* 2 bad lines/);
    expect(skipped.stdout).toContain('  skipped line 5 created_at: "yesterday" is not an ISO 8601 date');
    const listed = JSON.parse((await runCli(['list', '--json'], { env: home })).stdout) as Array<{ content: string; created_at: string; last_seen_at: string }>;
    for (const [i, [, stored]] of forms.entries()) {
      const memory = listed.find((m) => m.content.startsWith(`Rule ${i}:`));
      expect(memory, String(forms[i]![0])).toMatchObject({ created_at: stored, last_seen_at: stored });
    }
  });
});
