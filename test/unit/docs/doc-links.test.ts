/** Every relative link in the README, ARCHITECTURE.md and docs/ names a file that exists. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILES = ['README.md', 'ARCHITECTURE.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function relativeLinks(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return links.filter((link) => !/^[a-z]+:/i.test(link) && !link.startsWith('#')).map((link) => link.split('#')[0]!);
}

describe('links between the docs', () => {
  it.each(FILES)('%s links only to files that exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const missing = relativeLinks(text).filter((link) => !existsSync(join(ROOT, dirname(file), link)));
    expect(missing).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = new Set(relativeLinks(readme));
    const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    const reachable = new Set(linked);
    // A page counts as reachable when the README or a page it links names it.
    for (const page of linked) {
      if (!page.startsWith('docs/') || !existsSync(join(ROOT, page))) continue;
      for (const link of relativeLinks(readFileSync(join(ROOT, page), 'utf8'))) reachable.add(join('docs', link).replace(/\\/g, '/'));
    }
    expect(pages.filter((page) => !reachable.has(page))).toEqual([]);
  });
});
