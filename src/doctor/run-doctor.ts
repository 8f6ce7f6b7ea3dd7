/**
 * Runs every doctor check: the config first (the others need it), then the rest at once. The I/O
 * comes in as probes, so a test can run the whole doctor against doubles.
 */
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { describeError } from '../core/errors.js';
import type { StatePaths } from '../core/state-paths.js';
import type { EmbedderProbe } from './check-embedder.js';
import { checkEmbedder } from './check-embedder.js';
import { checkConfig, type ConfigProbe } from './check-config.js';
import { checkHooks, type AgentPresence, type SettingsFileProbe } from './check-hooks.js';
import { agentDir } from '../install/install-targets.js';
import type { AgentTarget } from '../install/recall-hooks.js';
import { checkNodeVersion } from './check-node.js';
import { checkLlmModel, checkOllama, type OllamaProbe } from './check-ollama.js';
import { checkQueue, type QueueProbe } from './check-queue.js';
import type { CheckResult } from './check-result.js';
import { checkStateDir, type StateDirProbe } from './check-state-dir.js';
import { checkStore, type StoreProbe } from './check-store.js';
import { canonicalEmbedderId } from '../app/create-embedder.js';
import { resolveStoreLocation } from '../config/store-location.js';
import { type StoreLocation } from '../core/store-location.js';

export interface DoctorInputs {
  nodeVersion: string;
  now: Date;
  /** The user's home folder, where ~/.claude and ~/.factory live. */
  homeDir: string;
  /** Folders whose .claude/settings.json also count (the current project). */
  projectDirs: readonly string[];
  /** Codex's home folder when CODEX_HOME is set (its hooks.json lives there); `<homeDir>/.codex` otherwise. */
  codexHome?: string | undefined;
  /** GitHub Copilot CLI's home folder when COPILOT_HOME is set (its hooks/recall.json lives there); `<homeDir>/.copilot` otherwise. */
  copilotHome?: string | undefined;
}

export interface DoctorProbes {
  config(): { probe: ConfigProbe; config: Config; paths: StatePaths };
  stateDir(path: string): StateDirProbe;
  ollama(host: string): Promise<OllamaProbe>;
  embedder(config: Config, paths: StatePaths): Promise<EmbedderProbe>;
  store(location: StoreLocation): Promise<StoreProbe>;
  settingsFile(path: string): SettingsFileProbe;
  /** Whether an agent is on this machine: its settings folder exists, or its program is on PATH. */
  agentFound(dir: string, binary: string): boolean;
  queue(paths: StatePaths): QueueProbe;
}

/** The results in a fixed order: node, state dir, config, Ollama, model, embedder, database, hooks (Claude Code, droid, Codex, Gemini CLI, Copilot CLI), queue. */
export async function runDoctor(inputs: DoctorInputs, probes: DoctorProbes): Promise<CheckResult[]> {
  const { probe: configProbe, config, paths } = probes.config();
  const claudeFiles = unique([
    join(inputs.homeDir, '.claude', 'settings.json'),
    ...inputs.projectDirs.flatMap((dir) => [join(dir, '.claude', 'settings.json'), join(dir, '.claude', 'settings.local.json')]),
  ]);
  // Factory reads hooks from settings.json, its settings.local.json overrides and hooks.json, in ~/.factory and a project's .factory.
  const factoryFiles = unique(
    [inputs.homeDir, ...inputs.projectDirs].flatMap((dir) => ['settings.json', 'settings.local.json', 'hooks.json'].map((name) => join(dir, '.factory', name))),
  );

  const codexFiles = unique([
    join(agentDir('codex', { home: inputs.homeDir, codexHome: inputs.codexHome }), 'hooks.json'),
    ...inputs.projectDirs.map((dir) => join(dir, '.codex', 'hooks.json')),
  ]);

  const geminiFiles = unique([inputs.homeDir, ...inputs.projectDirs].map((dir) => join(dir, '.gemini', 'settings.json')));
  const qwenFiles = unique([inputs.homeDir, ...inputs.projectDirs].map((dir) => join(dir, '.qwen', 'settings.json')));
  const copilotFiles = unique([
    join(agentDir('copilot', { home: inputs.homeDir, copilotHome: inputs.copilotHome }), 'hooks', 'recall.json'),
    ...inputs.projectDirs.map((dir) => join(dir, '.github', 'hooks', 'recall.json')),
  ]);

  const homes = { home: inputs.homeDir, codexHome: inputs.codexHome, copilotHome: inputs.copilotHome };
  const presence = (agent: AgentTarget): AgentPresence => {
    const dir = agentDir(agent, homes);
    const binary = AGENT_PROGRAMS[agent];
    return { found: probes.agentFound(dir, binary), dir, binary };
  };

  const ollama = probes.ollama(config.ollama.host);
  const results = await Promise.all([
    guard('node', 'Node.js', () => checkNodeVersion(inputs.nodeVersion)),
    guard('state-dir', 'State directory', () => checkStateDir(probes.stateDir(paths.home))),
    guard('config', 'Configuration', () => checkConfig(configProbe)),
    guard('ollama', 'Ollama', async () => checkOllama(config.ollama.host, await ollama)),
    guard('llm-model', 'Extraction model', async () => checkLlmModel(config.ollama.llmModel, await ollama)),
    guard('embedder', 'Embedder', async () => checkEmbedder(config.embedder.id, await probes.embedder(config, paths))),
    guard('store', 'Database', async () => {
      const location = resolveStoreLocation(config, paths);
      return checkStore(canonicalEmbedderId(config.embedder.id), location, await probes.store(location));
    }),
    guard('hooks-claude', 'Hooks (Claude Code)', () => checkHooks('claude', claudeFiles.map((f) => probes.settingsFile(f)), paths.home, presence('claude'))),
    guard('hooks-factory', 'Hooks (Factory)', () => checkHooks('factory', factoryFiles.map((f) => probes.settingsFile(f)), paths.home, presence('factory'))),
    guard('hooks-codex', 'Hooks (Codex)', () => checkHooks('codex', codexFiles.map((f) => probes.settingsFile(f)), paths.home, presence('codex'))),
    guard('hooks-gemini', 'Hooks (Gemini CLI)', () => checkHooks('gemini', geminiFiles.map((f) => probes.settingsFile(f)), paths.home, presence('gemini'))),
    guard('hooks-copilot', 'Hooks (Copilot CLI)', () => checkHooks('copilot', copilotFiles.map((f) => probes.settingsFile(f)), paths.home, presence('copilot'))),
    guard('hooks-qwen', 'Hooks (Qwen Code)', () => checkHooks('qwen', qwenFiles.map((f) => probes.settingsFile(f)), paths.home, presence('qwen'))),
    guard('queue', 'Capture queue', () => checkQueue(probes.queue(paths), inputs.now)),
  ]);
  return results;
}

/** A probe that throws (a bug, or a failure nobody foresaw) fails its own check, not the doctor. */
async function guard(id: string, title: string, run: () => CheckResult | Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await run();
  } catch (err) {
    return { id, title, status: 'fail', detail: `the check itself failed: ${describeError(err)}` };
  }
}

/** The program each agent is started by, looked for on PATH. */
const AGENT_PROGRAMS: Record<AgentTarget, string> = { claude: 'claude', factory: 'droid', codex: 'codex', gemini: 'gemini', copilot: 'copilot', qwen: 'qwen' };

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
