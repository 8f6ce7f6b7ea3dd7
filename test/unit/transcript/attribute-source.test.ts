import { describe, expect, it } from 'vitest';
import { attributeSource, sourceWords } from '../../../src/transcript/attribute-source.js';
import type { SessionEntry } from '../../../src/transcript/session-events.js';
import { ToolOutput } from '../../../src/transcript/tool-output.js';

const entries: SessionEntry[] = [
  { kind: 'user', text: 'Keep every amount in integer cents in the orders database.', pasted: [{ kind: 'log', lines: 40, chars: 4000, excerpt: 'ERROR redis connection refused on port 6380' }] },
  { kind: 'assistant', text: 'The repository layer maps total_cents columns to bigint values.', fullChars: 63, final: true },
  { kind: 'tool', name: 'Bash', summary: '[tool Bash: cat README]', output: ToolOutput.of('Deploy by running make release-canary then make promote.'), outputChars: 60 },
  { kind: 'compaction', text: 'The user chose Fastify over Express for the HTTP layer.' },
];
const sources = sourceWords(entries);

describe('attributeSource', () => {
  it.each([
    ['You MUST keep every amount in integer cents.', 'user'],
    ['The repository maps total_cents columns to bigint.', 'assistant'],
    ['Deploy with make release-canary, then make promote.', 'tool-output'],
    ['Use Fastify, not Express, for the HTTP layer.', 'summary'],
    ['Redis listens on port 6380 here.', 'tool-output'],
    ['Prefer small pull requests reviewed within a day.', 'model'],
  ])('names where "%s" came from', (content, source) => {
    expect(attributeSource(content, sources)).toBe(source);
  });

  it("gives what the user pasted (a log, CI output, a bot's review) tool-output provenance, not the user's", () => {
    const pasted = sourceWords([{ kind: 'user', text: 'CI is red again:\n[pasted log #1]', pasted: [{ kind: 'log', lines: 30, chars: 3000, excerpt: 'ERROR deploy must run make release-canary before make promote' }] }]);
    expect(attributeSource('You MUST run make release-canary before make promote.', pasted)).toBe('tool-output');
  });

  it('gives the output of a command the user ran in bash mode tool-output provenance', () => {
    const shell = sourceWords([{ kind: 'tool', name: 'bash mode', byUser: true, summary: '[the user ran in the shell: cat DEPLOY.md]', output: ToolOutput.of('Deploys go through the staging bastion host first.'), outputChars: 50 }]);
    expect(attributeSource('Deploys go through the staging bastion host first.', shell)).toBe('tool-output');
  });

  it('gives the user the memory when the user and a tool both said it', () => {
    const both = sourceWords([
      { kind: 'tool', name: 'Bash', summary: '[tool Bash: x]', output: ToolOutput.of('migrations live in db/migrations'), outputChars: 30 },
      { kind: 'user', text: 'migrations live in db/migrations', pasted: [] },
    ]);
    expect(attributeSource('Migrations live in db/migrations.', both)).toBe('user');
  });
});
