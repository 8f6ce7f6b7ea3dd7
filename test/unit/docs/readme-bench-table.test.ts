/**
 * The benchmark tables (the README's headline rows, docs/benchmarks.md's every row) are the ones
 * `bench/run-all.mjs` makes from bench/results.json, never prose.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'recall-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tableOf(text: string): string {
  const match = /<!-- bench-table:start -->\n([\s\S]*?)<!-- bench-table:end -->/.exec(text);
  if (!match) throw new Error('no bench-table markers');
  return match[1]!;
}

function rowsOf(table: string): string[] {
  return table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| what') && !line.startsWith('| ---'));
}

describe('the benchmark tables', () => {
  const readme = join(dir, 'README.md');
  const full = join(dir, 'benchmarks.md');
  beforeAll(() => {
    copyFileSync(join(ROOT, 'README.md'), readme);
    copyFileSync(join(ROOT, 'docs', 'benchmarks.md'), full);
    execFileSync(process.execPath, ['bench/run-all.mjs', '--table', '--readme'], {
      cwd: ROOT,
      env: { ...process.env, BENCH_README_FILE: readme, BENCH_DOCS_FILE: full, BENCH_RESULTS_FILE: join(ROOT, 'bench', 'results.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  });

  it("README.md's is exactly the short table generated from bench/results.json", () => {
    const generated = tableOf(readFileSync(readme, 'utf8'));
    expect(generated).toContain('| what');
    expect(tableOf(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toBe(generated);
  });

  it("docs/benchmarks.md's is exactly the full table generated from bench/results.json", () => {
    const generated = tableOf(readFileSync(full, 'utf8'));
    expect(tableOf(readFileSync(join(ROOT, 'docs', 'benchmarks.md'), 'utf8'))).toBe(generated);
  });

  it('the short table is a few headline rows, and no row of either says it was not understood', () => {
    const short = rowsOf(tableOf(readFileSync(readme, 'utf8')));
    const all = rowsOf(tableOf(readFileSync(full, 'utf8')));
    expect(short.length).toBeGreaterThan(10);
    expect(short.length).toBeLessThan(all.length / 2);
    expect([...short, ...all].filter((row) => row.includes('not understood'))).toEqual([]);
  });

  it('a headline row that stands for several rows is met only when all of them are', () => {
    const short = rowsOf(tableOf(readFileSync(readme, 'utf8')));
    const all = rowsOf(tableOf(readFileSync(full, 'utf8')));
    const anyMissed = (rows: string[], start: string) => rows.filter((row) => row.startsWith(start)).some((row) => row.endsWith('| NO |'));
    const judgementMissed = anyMissed(all, '| Judgement pairs');
    expect(short.find((row) => row.startsWith('| Judgement on labelled pairs'))?.endsWith(judgementMissed ? '| NO |' : '| yes |')).toBe(true);
    const uiMissed = anyMissed(all, '| `recall ui`: every page');
    expect(short.find((row) => row.startsWith('| `recall ui`: slowest page'))?.endsWith(uiMissed ? '| NO |' : '| yes |')).toBe(true);
  });
});
