import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { statePaths } from '../../../src/core/state-paths.js';
import { renderChecks, summarize } from '../../../src/doctor/render-checks.js';
import { runDoctor, type DoctorProbes } from '../../../src/doctor/run-doctor.js';

const paths = statePaths('/h/.recall');
const config = configSchema.parse({ ollama: { llmModel: 'llama3.2:3b' } });

function healthyProbes(overrides: Partial<DoctorProbes> = {}): DoctorProbes & { settingsRead: string[] } {
  const settingsRead: string[] = [];
  return {
    settingsRead,
    config: () => ({ probe: { configFile: paths.configFile, fileExists: false, problems: [], unknownKeys: [], envOverrides: [] }, config, paths }),
    stateDir: (path) => ({ path, state: 'directory', mode: 0o40700, writable: true }),
    ollama: async () => ({ reachable: true, version: '0.6.8', models: ['llama3.2:3b'] }),
    embedder: async () => ({ state: 'loaded', ms: 10, dimension: 8 }),
    store: async () => ({ state: 'absent' }),
    settingsFile: (path) => {
      settingsRead.push(path);
      return { path, state: 'missing' };
    },
    queue: () => ({ pending: 0, processing: 0, failed: 0, oldestPendingAt: null }),
    agentFound: () => true,
    ...overrides,
  };
}

const inputs = { nodeVersion: 'v20.19.0', now: new Date(), homeDir: '/u', projectDirs: ['/p'] };

describe('runDoctor', () => {
  it('runs every check in a fixed order', async () => {
    const results = await runDoctor(inputs, healthyProbes());
    expect(results.map((r) => r.id)).toEqual(['node', 'state-dir', 'config', 'ollama', 'llm-model', 'embedder', 'store', 'hooks-claude', 'hooks-factory', 'hooks-codex', 'hooks-gemini', 'hooks-copilot', 'hooks-qwen', 'queue']);
    expect(results.filter((r) => r.status !== 'ok').map((r) => r.id)).toEqual(['hooks-claude', 'hooks-factory', 'hooks-codex', 'hooks-gemini', 'hooks-copilot', 'hooks-qwen']);
  });

  it('reads the user and project settings of Claude Code, Factory, Codex, Gemini CLI, Copilot CLI and Qwen Code', async () => {
    const probes = healthyProbes();
    await runDoctor(inputs, probes);
    expect(probes.settingsRead).toEqual([
      '/u/.claude/settings.json',
      '/p/.claude/settings.json',
      '/p/.claude/settings.local.json',
      '/u/.factory/settings.json',
      '/u/.factory/settings.local.json',
      '/u/.factory/hooks.json',
      '/p/.factory/settings.json',
      '/p/.factory/settings.local.json',
      '/p/.factory/hooks.json',
      '/u/.codex/hooks.json',
      '/p/.codex/hooks.json',
      '/u/.gemini/settings.json',
      '/p/.gemini/settings.json',
      '/u/.copilot/hooks/recall.json',
      '/p/.github/hooks/recall.json',
      '/u/.qwen/settings.json',
      '/p/.qwen/settings.json',
    ]);
  });

  it("reads Codex's hooks.json from CODEX_HOME when it is set", async () => {
    const probes = healthyProbes();
    await runDoctor({ ...inputs, codexHome: '/elsewhere/codex' }, probes);
    expect(probes.settingsRead).toContain('/elsewhere/codex/hooks.json');
    expect(probes.settingsRead).not.toContain('/u/.codex/hooks.json');
  });

  it('finds Factory hooks installed in the project (recall install --project --target factory)', async () => {
    const hook = { type: 'command', command: '"node" "/r/dist/cli/main.js" hook session-end --agent factory' };
    const settings = { hooks: { SessionEnd: [{ hooks: [hook] }] } };
    const probes = healthyProbes({
      settingsFile: (path) => (path === '/p/.factory/settings.json' ? { path, state: 'read', settings } : { path, state: 'missing' }),
    });
    const results = await runDoctor(inputs, probes);
    expect(results.find((r) => r.id === 'hooks-factory')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^session-end in \/p\/\.factory\/settings\.json; /) });
  });

  it('reports the hooks of agents that are not on this machine as information, and warns only for the ones that are', async () => {
    const looked: string[] = [];
    const probes = healthyProbes({
      agentFound: (dir, binary) => {
        looked.push(`${dir} ${binary}`);
        return binary === 'codex';
      },
    });
    const results = await runDoctor({ ...inputs, copilotHome: '/c/copilot' }, probes);
    expect(looked.sort()).toEqual(['/c/copilot copilot', '/u/.claude claude', '/u/.codex codex', '/u/.factory droid', '/u/.gemini gemini', '/u/.qwen qwen']);
    expect(results.filter((r) => r.status !== 'ok').map((r) => `${r.id} ${r.status}`)).toEqual([
      'hooks-claude info',
      'hooks-factory info',
      'hooks-codex warn',
      'hooks-gemini info',
      'hooks-copilot info',
      'hooks-qwen info',
    ]);
    expect(summarize(results)).toMatch(/^1 warning /);
  });

  it('turns a probe that throws into a failure of that check alone', async () => {
    const results = await runDoctor(inputs, healthyProbes({ store: () => Promise.reject(new Error('boom')) }));
    expect(results.find((r) => r.id === 'store')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/boom/) });
    expect(results.find((r) => r.id === 'embedder')?.status).toBe('ok');
  });

  it('asks Ollama once for both the server and the model check', async () => {
    let calls = 0;
    const results = await runDoctor(inputs, healthyProbes({ ollama: async () => (calls++, { reachable: true, version: null, models: [] }) }));
    expect(calls).toBe(1);
    expect(results.find((r) => r.id === 'llm-model')).toMatchObject({ status: 'fail', fix: 'ollama pull llama3.2:3b' });
  });
});

describe('renderChecks', () => {
  const results = [
    { id: 'a', title: 'Alpha', status: 'ok' as const, detail: 'fine' },
    { id: 'b', title: 'Beta check', status: 'fail' as const, detail: 'broken', fix: 'do this' },
  ];

  it('prints one line per check with a symbol, and the fix beneath a failure', () => {
    const lines = renderChecks(results, { unicode: true });
    expect(lines[0]).toBe('✓ Alpha       fine');
    expect(lines[1]).toBe('✗ Beta check  broken');
    expect(lines[2]).toMatch(/^ {2}fix: +do this$/);
  });

  it('uses words instead of symbols without a unicode terminal', () => {
    const lines = renderChecks(results, { unicode: false });
    expect(lines[0]).toMatch(/^ok {3}Alpha/);
    expect(lines[1]).toMatch(/^FAIL Beta check/);
  });

  it('prints information without a fix and does not count it as a warning', () => {
    const info = { id: 'c', title: 'Gamma', status: 'info' as const, detail: 'not installed', fix: 'never shown' };
    expect(renderChecks([info], { unicode: false })).toEqual(['info Gamma  not installed', '', 'All checks passed.']);
    expect(renderChecks([info], { unicode: true })[0]).toBe('· Gamma  not installed');
  });

  it('summarises failures and warnings', () => {
    expect(summarize(results)).toBe('1 failed.');
    expect(summarize([{ ...results[0]!, status: 'warn' }])).toMatch(/^1 warning \(recall works/);
    expect(summarize([results[0]!])).toBe('All checks passed.');
  });
});
