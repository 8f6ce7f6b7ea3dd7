/** The configuration: valid, and no keys the schema ignores. Pure. */
import { fixForProblem, formatConfigProblems, type ConfigProblem } from '../config/evaluate-config.js';
import { describeUnknownKey } from '../config/unknown-keys-warning.js';
import type { CheckResult } from './check-result.js';

export interface ConfigProbe {
  configFile: string;
  fileExists: boolean;
  /** Bad values (their defaults were used for the other checks) or an unreadable file. */
  problems: readonly ConfigProblem[];
  /** Keys in config.json the schema does not know. */
  unknownKeys: readonly string[];
  /** Environment variables that override keys. */
  envOverrides: readonly string[];
}

export function checkConfig(probe: ConfigProbe): CheckResult {
  const base = { id: 'config', title: 'Configuration' } as const;
  if (probe.problems.length > 0) {
    const fixes = [...new Set(probe.problems.map((p) => fixForProblem(p, probe.configFile)))];
    return {
      ...base,
      status: 'fail',
      detail: `${formatConfigProblems(probe.problems, probe.configFile)} (the other checks use the defaults for these keys)`,
      fix: fixes.join('; '),
    };
  }
  const where = probe.fileExists ? probe.configFile : 'defaults (no config file)';
  const env = probe.envOverrides.length > 0 ? `; overridden by ${probe.envOverrides.join(', ')}` : '';
  if (probe.unknownKeys.length > 0) {
    return {
      ...base,
      status: 'warn',
      detail: `${probe.configFile} has keys recall ignores: ${probe.unknownKeys.map(describeUnknownKey).join(', ')}`,
      fix: probe.unknownKeys.map((k) => `recall config unset ${k}`).join('; '),
    };
  }
  return { ...base, status: 'ok', detail: `valid: ${where}${env}` };
}

