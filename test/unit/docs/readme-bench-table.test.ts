/** The README's benchmark table is the one `bench/run-all.mjs` makes from bench/results.json, never prose. */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'recall-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tableOf(text: string): string {
  const match = /<!-- bench-table:start -->\n([\s\S]*?)<!-- bench-table:end -->/.exec(text);
  if (!match) throw new Error('no bench-table markers');
  return match[1]!;
}

describe('the README benchmark table', () => {
  it('is exactly the table generated from bench/results.json', () => {
    const copy = join(dir, 'README.md');
    copyFileSync(join(ROOT, 'README.md'), copy);
    execFileSync(process.execPath, ['bench/run-all.mjs', '--table', '--readme'], {
      cwd: ROOT,
      env: { ...process.env, BENCH_README_FILE: copy, BENCH_RESULTS_FILE: join(ROOT, 'bench', 'results.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const generated = tableOf(readFileSync(copy, 'utf8'));
    expect(generated).toContain('| what');
    expect(tableOf(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toBe(generated);
  });
});
