/** Endless Mode never lets a secret leave or rest: not in the model prompt, the saved output, the record or what the agent reads. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log.js';
import { completeEntry, ensureEntry } from '../../../src/endless/complete-observation.js';
import { compressToolOutput, type CompressDeps } from '../../../src/endless/compress-tool-output.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import { endlessRoot, entryPaths } from '../../../src/endless/endless-store.js';
import type { Observation } from '../../../src/endless/observation.js';
import type { ObserveFn, ObserveRequest } from '../../../src/endless/ollama-observe.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

const settings: EndlessSettings = {
  enabled: true, minChars: 1000, readMinChars: 5000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: 'llama3.2:3b', numCtx: 8192, timeoutMs: 10_000 },
};

// Shapes the redactor before this one let through (a Hugging Face token, a multi-word password, mysql -p).
const HF = `hf_${'QwErTyUiOpAsDfGhJkLzXcVbNm'}ZxCvBnMq`;
const PHRASE = 'correct horse battery staple';
const MYSQL_PW = 'S3cretRoot';
const SECRETS = [HF, PHRASE, 'staple', MYSQL_PW];

const output = [
  ...Array.from({ length: 200 }, (_, i) => `PASS test/unit/file-${i}.test.ts`),
  `HF_TOKEN=${HF}`,
  `PASSWORD=${PHRASE}`,
  'FAIL test/x.test.ts',
  '  expected 3 to be 4',
].join('\n');

function payload() {
  return {
    sessionId: 'sess-1', toolUseId: 'toolu_01', toolName: 'Bash',
    toolInput: { command: `mysql -u root -p${MYSQL_PW} app < seed.sql && npm test` },
    toolResponse: { stdout: output, stderr: `warning: token ${HF} in env`, interrupted: false, isImage: false, noOutputExpected: false },
  };
}

/** A model that echoes what it was shown: the worst case for what comes back. */
function echoingModel(seen: ObserveRequest[]): ObserveFn {
  return async (request) => {
    seen.push(request);
    const observation: Observation = {
      type: 'bugfix', title: `tests ran with ${HF}`, subtitle: '', narrative: `the sudo password is ${MYSQL_PW}`,
      facts: [`HF_TOKEN=${HF}`, `PASSWORD=${PHRASE}`], concepts: [], files: [],
    };
    return observation;
  };
}

function deps(home: string, observe: ObserveFn): CompressDeps {
  return { home, now: () => Date.now(), deadlineAt: Date.now() + 30_000, observe, logger: silentLogger, spawnCompleter: async () => true };
}

function everythingSaved(home: string): string {
  const root = endlessRoot(home);
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

function expectNoSecret(text: string): void {
  expect(SECRETS.filter((secret) => text.includes(secret))).toEqual([]);
}

describe('Endless Mode and secrets', () => {
  it('sends the model a prompt without the secrets of the output or the command', async () => {
    const seen: ObserveRequest[] = [];
    await compressToolOutput(payload(), settings, deps(tempDir(), echoingModel(seen)));
    expect(seen).toHaveLength(1);
    expectNoSecret(JSON.stringify(seen[0]!.prompt));
    expect(seen[0]!.prompt.user).toContain('[REDACTED:');
  });

  it('returns an observation and an updatedToolOutput without secrets, even when the model echoes them', async () => {
    const answer = await compressToolOutput(payload(), settings, deps(tempDir(), echoingModel([])));
    expect(JSON.stringify(answer)).toContain('tests ran with [REDACTED:');
    expectNoSecret(JSON.stringify(answer));
  });

  it('returns a reduction without secrets when the model is down', async () => {
    const answer = await compressToolOutput(payload(), settings, deps(tempDir(), async () => {
      throw new Error('down');
    }));
    expect(JSON.stringify(answer)).toContain('reduced');
    expectNoSecret(JSON.stringify(answer));
  });

  it('saves the full output, the original value and the record redacted, 0600', async () => {
    const home = tempDir();
    await compressToolOutput(payload(), settings, deps(home, echoingModel([])));
    const paths = entryPaths(home, 'sess-1', 'toolu_01');
    expect(readFileSync(paths.text, 'utf8')).toContain('PASSWORD=[REDACTED:password]');
    for (const file of [paths.text, paths.original, paths.record]) expect(statSync(file).mode & 0o777).toBe(0o600);
    expectNoSecret(everythingSaved(home));
  });

  it('saves an output found in a transcript redacted, and completes it with a redacted prompt and observation', async () => {
    const home = tempDir();
    const source = { sessionId: 's2', toolUseId: 't2', toolName: 'Bash', toolInput: payload().toolInput, text: output, response: payload().toolResponse };
    const { paths, record } = ensureEntry(home, source, Date.now());
    const seen: ObserveRequest[] = [];
    await completeEntry(paths, record, { home, settings, observe: echoingModel(seen), now: () => Date.now(), logger: silentLogger });
    expect(seen).toHaveLength(1);
    expectNoSecret(JSON.stringify(seen[0]!.prompt));
    expectNoSecret(everythingSaved(home));
  });
});
