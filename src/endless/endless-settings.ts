/**
 * Endless Mode settings. Two readers, one result:
 * - `readEndlessSettings` for the PostToolUse hook: node built-ins only, JSON.parse of
 *   RECALL_HOME/config.json plus the same environment overrides, checked against the same key table
 *   the zod schema is built from. It never throws: a bad value is reported in `problems` and its
 *   default used (a hook must answer).
 * - `settingsFromConfig` for the CLI, from the already validated zod config.
 */
import type { Config } from '../config/schema.js';
import { CONFIG_KEYS, listTableKeys } from '../config/key-table.js';
import { applyEnvOverrides, parseEnvFlag } from '../config/env-overrides.js';
import { readConfigJsonLeniently } from '../config/read-config-json.js';
import { readKnownKeys } from '../config/read-known-keys.js';
import { describeUnknownKey, findUnknownKeys } from '../config/unknown-keys.js';
import { isObject } from '../core/is-object.js';

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

/** Only the enabled flag: the environment first, the config file only when the environment is silent. */
export function readEndlessEnabled(env: NodeJS.ProcessEnv, home: string): boolean {
  const fromEnv = parseEnvFlag(env[CONFIG_KEYS.endless.enabled.env]);
  if (fromEnv !== undefined) return fromEnv;
  const section = readConfigJsonLeniently(home, []).endless;
  return isObject(section) && section.enabled === true;
}

/** The keys the hook reads: the endless and ollama groups. */
const HOOK_KEYS = listTableKeys().filter((k) => k.path[0] === 'endless' || k.path[0] === 'ollama');

export function readEndlessSettings(env: NodeJS.ProcessEnv, home: string): LiteSettings {
  const problems: string[] = [];
  const fileRaw = readConfigJsonLeniently(home, problems);
  // Every value the config schema would refuse is reported here too, so a caller that acts only on a
  // clean reading (the fast `endless fork`) never accepts what the rest of the CLI rejects; keys the
  // schema ignores are reported too, as every command warns about them.
  const unknown = findUnknownKeys(fileRaw);
  if (unknown.length > 0) problems.push(`config.json: keys recall ignores: ${unknown.map(describeUnknownKey).join(', ')}`);
  // The same overrides, laid over the file by the same function, as the CLI's config.
  const { values, problems: refused } = readKnownKeys(applyEnvOverrides(fileRaw, env), HOOK_KEYS);
  problems.push(...refused);
  const get = <T>(key: string): T => values.get(key) as T;
  return {
    settings: {
      enabled: get<boolean>('endless.enabled'),
      minChars: get<number>('endless.minChars'),
      readMinChars: get<number>('endless.readMinChars'),
      syncTimeoutMs: get<number>('endless.syncTimeoutMs'),
      denylist: get<string[]>('endless.denylist'),
      keepRecent: get<number>('endless.keepRecent'),
      forkMinChars: get<number>('endless.forkMinChars'),
      ollama: {
        host: get<string>('ollama.host'),
        model: get<string | undefined>('ollama.llmModel') ?? null,
        numCtx: get<number>('ollama.numCtx'),
        timeoutMs: get<number>('ollama.timeoutMs'),
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
