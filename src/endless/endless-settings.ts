/**
 * Endless Mode settings. Two readers, one result:
 * - `readEndlessSettings` for the PostToolUse hook: node built-ins only, JSON.parse of
 *   RECALL_HOME/config.json plus the same environment overrides the zod schema applies. It never
 *   throws: a bad value is reported in `problems` and its default used (a hook must answer).
 * - `settingsFromConfig` for the CLI, from the already validated zod config.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { ENDLESS_DEFAULTS, ENDLESS_ENV } from './endless-defaults.js';
import { OLLAMA_DEFAULTS, applyEnvOverrides, parseEnvFlag } from '../config/env-overrides.js';
import { normalizeOllamaHost } from '../config/ollama-host.js';
import { isObject } from '../core/is-object.js';
import { parseJsonObject } from '../core/read-json-object.js';

export interface EndlessOllama {
  host: string;
  model: string | null;
  numCtx: number;
  timeoutMs: number;
}

export interface EndlessSettings {
  enabled: boolean;
  minChars: number;
  readMinChars: number;
  syncTimeoutMs: number;
  denylist: readonly string[];
  keepRecent: number;
  forkMinChars: number;
  ollama: EndlessOllama;
}

export interface LiteSettings {
  settings: EndlessSettings;
  /** Values that were ignored, for the log. */
  problems: string[];
}

type Json = Record<string, unknown>;

/** Only the enabled flag: the environment first, the config file only when the environment is silent. */
export function readEndlessEnabled(env: NodeJS.ProcessEnv, home: string): boolean {
  const fromEnv = parseEnvFlag(env[ENDLESS_ENV.enabled]);
  if (fromEnv !== undefined) return fromEnv;
  const section = readConfigJson(home, []).endless;
  return isObject(section) && section.enabled === true;
}

export function readEndlessSettings(env: NodeJS.ProcessEnv, home: string): LiteSettings {
  const problems: string[] = [];
  // The same overrides, laid over the file by the same function, as the CLI's config.
  const file = applyEnvOverrides(readConfigJson(home, problems), env);
  const section = (key: string): Json => {
    if (isObject(file[key])) return file[key];
    if (file[key] !== undefined) problems.push(`${key}: ignored ${JSON.stringify(file[key])} (want an object)`);
    return {};
  };
  const endless = section('endless');
  const ollama = section('ollama');
  const int = (raw: unknown, fallback: number, min: number, key: string): number => {
    if (raw === undefined) return fallback;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    if (Number.isInteger(n) && n >= min) return n;
    problems.push(`${key}: ignored ${JSON.stringify(raw)} (want a whole number >= ${min})`);
    return fallback;
  };
  // Every value the config schema would refuse is reported here too, so a caller that acts only on a
  // clean reading (the fast `endless fork`) never accepts what the rest of the CLI rejects.
  const wrongType = (key: string, value: unknown, want: string): void => void problems.push(`${key}: ignored ${JSON.stringify(value)} (want ${want})`);
  const enabled = endless.enabled === true;
  if (endless.enabled !== undefined && typeof endless.enabled !== 'boolean') wrongType('endless.enabled', endless.enabled, 'true or false');
  const denylist = Array.isArray(endless.denylist) ? endless.denylist.filter((x): x is string => typeof x === 'string' && x !== '') : [];
  if (endless.denylist !== undefined && (!Array.isArray(endless.denylist) || denylist.length !== endless.denylist.length)) wrongType('endless.denylist', endless.denylist, 'a list of tool names');
  const model = typeof ollama.llmModel === 'string' && ollama.llmModel !== '' ? ollama.llmModel : null;
  if (ollama.llmModel !== undefined && model === null) wrongType('ollama.llmModel', ollama.llmModel, 'a model name');
  const rawHost = typeof ollama.host === 'string' ? ollama.host : OLLAMA_DEFAULTS.host;
  if (ollama.host !== undefined && typeof ollama.host !== 'string') wrongType('ollama.host', ollama.host, 'a URL');
  const syncTimeoutMs = int(endless.syncTimeoutMs, ENDLESS_DEFAULTS.syncTimeoutMs, 1, 'endless.syncTimeoutMs');
  if (syncTimeoutMs > ENDLESS_DEFAULTS.maxSyncTimeoutMs) problems.push(`endless.syncTimeoutMs: ${syncTimeoutMs} lowered to ${ENDLESS_DEFAULTS.maxSyncTimeoutMs} (the hook timeout is 90 s)`);
  let host: string = OLLAMA_DEFAULTS.host;
  try {
    host = normalizeOllamaHost(rawHost);
  } catch {
    problems.push(`ollama.host: ignored ${JSON.stringify(rawHost)} (not a URL)`);
  }
  return {
    settings: {
      enabled,
      minChars: int(endless.minChars, ENDLESS_DEFAULTS.minChars, 1, 'endless.minChars'),
      readMinChars: int(endless.readMinChars, ENDLESS_DEFAULTS.readMinChars, 1, 'endless.readMinChars'),
      syncTimeoutMs: Math.min(ENDLESS_DEFAULTS.maxSyncTimeoutMs, syncTimeoutMs),
      denylist,
      keepRecent: int(endless.keepRecent, ENDLESS_DEFAULTS.keepRecent, 0, 'endless.keepRecent'),
      forkMinChars: int(endless.forkMinChars, ENDLESS_DEFAULTS.forkMinChars, 1, 'endless.forkMinChars'),
      ollama: {
        host,
        model,
        numCtx: int(ollama.numCtx, OLLAMA_DEFAULTS.numCtx, 1, 'ollama.numCtx'),
        timeoutMs: int(ollama.timeoutMs, OLLAMA_DEFAULTS.timeoutMs, 1, 'ollama.timeoutMs'),
      },
    },
    problems,
  };
}

export function settingsFromConfig(config: Readonly<Config>): EndlessSettings {
  const { endless, ollama } = config;
  return {
    enabled: endless.enabled,
    minChars: endless.minChars,
    readMinChars: endless.readMinChars,
    syncTimeoutMs: endless.syncTimeoutMs,
    denylist: [...endless.denylist],
    keepRecent: endless.keepRecent,
    forkMinChars: endless.forkMinChars,
    ollama: { host: ollama.host, model: ollama.llmModel ?? null, numCtx: ollama.numCtx, timeoutMs: ollama.timeoutMs },
  };
}

function readConfigJson(home: string, problems: string[]): Json {
  let text: string;
  try {
    text = readFileSync(join(home, 'config.json'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`config.json: unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return {};
  }
  const parsed = parseJsonObject(text);
  if (parsed.ok) return parsed.record;
  problems.push('config.json: not a JSON object; using defaults');
  return {};
}

