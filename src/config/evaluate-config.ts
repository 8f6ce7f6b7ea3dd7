/**
 * Config evaluation that explains itself: which keys are wrong, and whether the bad value came from
 * config.json or an environment variable. Pure: the file's content and the environment come in.
 */
import { activeEnvOverrides, applyEnvOverrides } from './env-overrides.js';
import { configSchema, type Config } from './schema.js';
import { getPath } from './config-keys.js';
import { normalizeOllamaHost, ollamaHostProblem } from './ollama-host.js';
import { isObject } from '../core/is-object.js';

export { activeEnvOverrides };
export { findUnknownKeys } from './unknown-keys.js';

export interface ConfigProblem {
  /** Dotted key, `(root)` for the whole file, or `(file)` when config.json cannot be read at all. */
  key: string;
  path: readonly string[];
  message: string;
  source: 'file' | 'env';
  /** The environment variable that supplied the bad value, when `source` is `env`. */
  envVar?: string;
}

export type ConfigEvaluation = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

/** Validates file + env the way loadConfig does, but returns every problem with its source. */
export function evaluateConfig(fileRaw: Record<string, unknown>, env: NodeJS.ProcessEnv): ConfigEvaluation {
  const active = activeEnvOverrides(env);
  const result = parseMerged(applyEnvOverrides(fileRaw, env));
  if (result.ok) return result;
  return { ok: false, problems: result.issues.map(({ path, message }) => toProblem(path, message, active)) };
}

/**
 * A usable config even when some keys are wrong: bad values are dropped (their defaults apply) and
 * reported. For `recall doctor`, which must go on checking everything else.
 */
export function salvageConfig(fileRaw: Record<string, unknown>, env: NodeJS.ProcessEnv): { config: Config; problems: ConfigProblem[] } {
  const active = activeEnvOverrides(env);
  const merged = applyEnvOverrides(fileRaw, env);
  const problems: ConfigProblem[] = [];
  for (let round = 0; round < 5; round += 1) {
    const result = parseMerged(merged);
    if (result.ok) return { config: result.config, problems };
    for (const { path, message } of result.issues) {
      problems.push(toProblem(path, message, active));
      deletePath(merged, path);
    }
  }
  return { config: configSchema.parse({}), problems };
}

/** One line per problem, naming the key, where the value came from, and the problem. */
export function formatConfigProblems(problems: readonly ConfigProblem[], configFile: string): string {
  return problems.map((p) => (p.key === '(file)' ? p.message : `${p.key} (${describeSource(p, configFile)}): ${p.message}`)).join('; ');
}

/** How to repair one problem. */
export function fixForProblem(problem: ConfigProblem, configFile: string): string {
  if (problem.source === 'env') return `change or unset ${problem.envVar}`;
  if (problem.key === '(file)' || problem.key === '(root)') return `repair ${configFile} or delete it to start from the defaults`;
  return `recall config set ${problem.key} <value>, or recall config unset ${problem.key}`;
}

function describeSource(problem: ConfigProblem, configFile: string): string {
  return problem.source === 'env' ? `from env ${problem.envVar}` : `in ${configFile}`;
}

type Parsed = { ok: true; config: Config } | { ok: false; issues: Array<{ path: string[]; message: string }> };

function parseMerged(merged: Record<string, unknown>): Parsed {
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) };
  }
  const config = parsed.data;
  try {
    config.ollama.host = normalizeOllamaHost(config.ollama.host);
  } catch {
    return { ok: false, issues: [{ path: ['ollama', 'host'], message: ollamaHostProblem(config.ollama.host) }] };
  }
  return { ok: true, config };
}

function toProblem(path: string[], message: string, active: Map<string, string>): ConfigProblem {
  const key = path.join('.') || '(root)';
  const envVar = active.get(key);
  return envVar ? { key, path, message, source: 'env', envVar } : { key, path, message, source: 'file' };
}

function deletePath(target: Record<string, unknown>, path: readonly string[]): void {
  if (path.length === 0) {
    for (const name of Object.keys(target)) delete target[name];
    return;
  }
  const parent = getPath(target, path.slice(0, -1));
  if (isObject(parent)) {
    delete parent[path[path.length - 1]!];
  }
}
