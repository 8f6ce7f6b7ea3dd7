/** `recall endless fork` without the command-line program: what it takes on, and what it loads. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseForkArgs } from '../../../src/cli/commands/endless-fork-fast.js';
import { importClosure } from '../../support/import-graph.js';

const SRC = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../src');

describe('parseForkArgs', () => {
  it('takes the transcript and every fork option, in any order, as --name N or --name=N', () => {
    expect(parseForkArgs(['s.jsonl'])).toEqual({ transcript: 's.jsonl', flags: { model: true } });
    expect(parseForkArgs(['--json', '--keep-recent', '0', 's.jsonl', '--no-model', '--min-chars=2000', '--read-min-chars', '007', '--fork-min-chars', '1500'])).toEqual({
      transcript: 's.jsonl',
      flags: { model: false, json: true, keepRecent: 0, minChars: 2000, readMinChars: 7, forkMinChars: 1500 },
    });
  });

  it('leaves to the full program every command line it does not fully understand', () => {
    for (const args of [
      [],
      ['--help'],
      ['s.jsonl', '-h'],
      ['s.jsonl', '--in-place'],
      ['s.jsonl', '--keep-recent'],
      ['s.jsonl', '--keep-recent', '-2'],
      ['s.jsonl', '--keep-recent', '1.5'],
      ['s.jsonl', '--min-chars=lots'],
      ['s.jsonl', '--unknown'],
      ['a.jsonl', 'b.jsonl'],
      ['--', 's.jsonl'],
      [''],
      ['-x'],
    ]) {
      expect(parseForkArgs(args), JSON.stringify(args)).toBeNull();
    }
  });
});

describe('the fast fork path', () => {
  it('loads node built-ins and recall modules only: no commander, no config schema, no model client', () => {
    const { files, packages } = importClosure(join(SRC, 'cli/commands/endless-fork-fast.ts'), { followDynamic: false });
    const relative = files.map((f) => f.slice(SRC.length + 1));
    expect(relative).toContain('endless/fork-session.ts');
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual([]);
    expect(relative).not.toContain('config/schema.ts');
    expect(relative).not.toContain('cli/program.ts');
    expect(relative).not.toContain('cli/output.ts');
    expect(relative).not.toContain('endless/ollama-observe.ts');
    expect(relative).not.toContain('adapters/file-lock.ts');
  });
});
