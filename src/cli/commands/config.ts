import type { Command } from 'commander';
import { describeConfigSource, listConfigEntries, maskSecret } from '../../config/config-entries.js';
import { findConfigKey, getPath, type ConfigKey } from '../../config/config-keys.js';
import { formatConfigValue, parseConfigValue } from '../../config/config-value.js';
import { assertValidConfigFile, setConfigKey, unsetConfigKey, writeConfigFile } from '../../config/edit-config-file.js';
import { activeEnvOverrides, evaluateConfig, fixForProblem, formatConfigProblems } from '../../config/evaluate-config.js';
import { readConfigFile } from '../../config/load-config.js';
import type { Config } from '../../config/schema.js';
import { RecallError } from '../../core/errors.js';
import { resolveHome, statePaths } from '../../core/state-paths.js';
import { out, tabSeparated } from '../output.js';
import { commandEnv, currentTerminal, setExitCode } from '../terminal.js';

export function registerConfig(program: Command): void {
  const config = program.command('config').description('show and change settings in RECALL_HOME/config.json');

  config
    .command('list')
    .description('every key with its effective value, where it comes from (default, file, env) and what it does')
    .option('--json', 'print the keys as JSON')
    .action((opts: { json?: boolean }) => {
      const { configFile, fileRaw } = readState();
      const entries = listConfigEntries(effectiveConfig(fileRaw, configFile), fileRaw, commandEnv());
      if (opts.json) {
        out.json(entries.map((e) => ({ ...e, value: e.value ?? null, defaultValue: e.defaultValue ?? null })));
        return;
      }
      if (!currentTerminal().isTTY) {
        // Piped: one tab-separated line per key, so grep finds a key with its value, source and description.
        const rows = entries.map((e) => [e.key, formatConfigValue(e.value), describeConfigSource(e), e.description, e.allowed]);
        out.line(tabSeparated(['key', 'value', 'source', 'description', 'allowed'], rows));
        return;
      }
      // One block per key rather than a table: descriptions stay whole at any terminal width.
      for (const e of entries) {
        out.line(`${e.key} = ${formatConfigValue(e.value)}  (${describeConfigSource(e)})`);
        out.line(`    ${e.description}`);
        if (e.allowed !== '') out.line(`    allowed: ${e.allowed}`);
      }
    });

  config
    .command('get <key>')
    .description('print the effective value of one key, e.g. ollama.llmModel')
    .option('--json', 'print the key, value and source as JSON')
    .action((name: string, opts: { json?: boolean }) => {
      const key = findConfigKey(name);
      const { configFile, fileRaw } = readState();
      const [entry] = listConfigEntries(effectiveConfig(fileRaw, configFile), fileRaw, commandEnv(), [key]);
      const value = entry?.value;
      if (opts.json) out.json({ key: key.key, value: value ?? null, source: entry?.source, ...(entry?.envVar ? { envVar: entry.envVar } : {}) });
      else if (value !== undefined) out.line(formatConfigValue(value));
      // Like `git config --get`: an unset key exits 1 (with --json, `"value": null` says it instead).
      if (value === undefined && !opts.json) {
        out.warn(`${key.key} is not set`);
        setExitCode(1);
      }
    });

  config
    .command('set <key> <value>')
    .description('write one key to config.json (the whole file is validated first)')
    .option('--json', 'print the key, the value written and the file as JSON')
    .action((name: string, text: string, opts: { json?: boolean }) => {
      const key = findConfigKey(name);
      const value = parseConfigValue(key, text);
      const { configFile, fileRaw } = readState();
      const next = setConfigKey(fileRaw, key, value);
      assertValidConfigFile(next, configFile, key.key);
      writeConfigFile(configFile, next);
      if (opts.json) out.json({ key: key.key, value: maskSecret(key.key, value), file: configFile });
      else out.line(`${key.key} = ${formatConfigValue(maskSecret(key.key, value))} (written to ${configFile})`);
      warnIfOverridden(key.key);
    });

  config
    .command('unset <key>')
    .description('remove one key from config.json, so its default applies')
    .option('--json', 'print the key, whether it was removed, its default and the file as JSON')
    .action((name: string, opts: { json?: boolean }) => {
      const { configFile, fileRaw } = readState();
      const key = findKeyToUnset(name, fileRaw);
      const { next, removed } = unsetConfigKey(fileRaw, key?.path ?? name.split('.'));
      if (removed) writeConfigFile(configFile, next);
      if (opts.json) out.json({ key: key?.key ?? name, removed, default: key?.defaultValue ?? null, file: configFile });
      else if (!removed) out.line(`${name} is not set in ${configFile}; nothing to do`);
      else out.line(`${name} removed from ${configFile}${key ? `; default: ${formatConfigValue(key.defaultValue)}` : ''}`);
      if (key) warnIfOverridden(key.key);
    });

  config
    .command('path')
    .description('print the path of the config file')
    .option('--json', 'print it as JSON')
    .action((opts: { json?: boolean }) => {
      if (opts.json) out.json({ path: readPaths().configFile });
      else out.line(readPaths().configFile);
    });
}

/** A known key, or null for a stray key that is in the file (a typo doctor warned about). */
function findKeyToUnset(name: string, fileRaw: Record<string, unknown>): ConfigKey | null {
  try {
    return findConfigKey(name);
  } catch (err) {
    if (getPath(fileRaw, name.split('.')) !== undefined) return null;
    throw err;
  }
}

function readPaths() {
  return statePaths(resolveHome(commandEnv()));
}

function readState(): { configFile: string; fileRaw: Record<string, unknown> } {
  const { configFile } = readPaths();
  return { configFile, fileRaw: readConfigFile(configFile) };
}

/** The effective config, or CONFIG_INVALID naming each bad key, where its value came from, and the fix. */
function effectiveConfig(fileRaw: Record<string, unknown>, configFile: string): Config {
  const result = evaluateConfig(fileRaw, commandEnv());
  if (result.ok) return result.config;
  const fixes = result.problems.map((p) => fixForProblem(p, configFile)).join('; ');
  throw new RecallError('CONFIG_INVALID', `invalid configuration: ${formatConfigProblems(result.problems, configFile)}. Fix: ${fixes}`);
}

function warnIfOverridden(key: string): void {
  const envVar = activeEnvOverrides(commandEnv()).get(key);
  if (envVar) {
    out.warn(`warning: ${envVar}=${commandEnv()[envVar] ?? ''} is set in the environment and overrides ${key}; unset it for the file's value to take effect`);
  }
}
