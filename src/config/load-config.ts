/** Reads RECALL_HOME/config.json, applies environment overrides, validates once and freezes. */
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { resolveHome, statePaths, type StatePaths } from '../core/state-paths.js';
import { normalizeOllamaHost, ollamaHostProblem } from './ollama-host.js';
import { activeEnvOverrides, applyEnvOverrides } from './env-overrides.js';
import { configSchema, type Config } from './schema.js';

export { normalizeOllamaHost };

export interface LoadedConfig {
  config: Readonly<Config>;
  paths: StatePaths;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const paths = statePaths(resolveHome(env));
  const raw = applyEnvOverrides(readConfigFile(paths.configFile), env);
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new RecallError('CONFIG_INVALID', `invalid configuration: ${formatIssues(parsed.error)}`);
  }
  const config = parsed.data;
  try {
    config.ollama.host = normalizeOllamaHost(config.ollama.host);
  } catch {
    const envVar = activeEnvOverrides(env).get('ollama.host');
    const from = envVar ? `from env ${envVar}` : `in ${paths.configFile}`;
    throw new RecallError('CONFIG_INVALID', `invalid configuration: ollama.host (${from}): ${ollamaHostProblem(config.ollama.host)}`);
  }
  return { config: deepFreeze(config), paths };
}

export function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    if (code === 'ENOTDIR' && isFile(dirname(file))) {
      throw new RecallError('STATE_UNWRITABLE', `the state dir ${dirname(file)} is a file, not a folder: point RECALL_HOME at a folder`, { cause: err });
    }
    throw new RecallError('CONFIG_INVALID', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RecallError('CONFIG_INVALID', `${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecallError('CONFIG_INVALID', `${file} must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}

export function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
