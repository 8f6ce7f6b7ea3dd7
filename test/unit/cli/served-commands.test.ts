import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { readServedCommand, SERVED_OPTIONS } from '../../../src/cli/served-commands.js';

/** A command's long options as the program declares them: name -> 'string' (takes a value) or 'boolean'. */
function declared(name: string): Record<string, string> {
  const command = buildProgram().commands.find((c) => c.name() === name)!;
  return Object.fromEntries(command.options.map((o) => [o.long!.slice(2), o.required || o.optional ? 'string' : 'boolean']));
}

describe('the commands recall serve runs', () => {
  it.each(Object.keys(SERVED_OPTIONS) as (keyof typeof SERVED_OPTIONS)[])('read %s with exactly the options the program declares', (name) => {
    const served = Object.fromEntries(Object.entries(SERVED_OPTIONS[name]).map(([option, spec]) => [option, spec.type]));
    expect(served).toEqual(declared(name));
  });

  it('take the command lines the program would run', () => {
    expect(readServedCommand(['search', 'pnpm', 'lockfile', '--limit', '3', '--min-score=0.2', '--mode', 'text', '--here', '--json'])).toBeTypeOf('function');
    expect(readServedCommand(['list', '--project', 'api', '--all-versions', '--limit=7'])).toBeTypeOf('function');
  });

  it('hand back help, usage errors and values the program refuses, so the program answers them with its own words', () => {
    for (const argv of [
      ['search', 'pnpm', '--help'],
      ['list', '-h'],
      ['search'],
      ['search', 'pnpm', '--no-such-flag'],
      ['search', 'pnpm', '--mode', 'fuzzy'],
      ['search', 'pnpm', '--min-score', '2'],
      ['list', '--limit', 'x'],
      ['list', 'extra'],
      ['show', 'x'],
    ]) {
      expect(readServedCommand(argv), argv.join(' ')).toBeNull();
    }
  });
});
