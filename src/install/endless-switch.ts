/**
 * `recall install --endless` means "I want Endless Mode": besides adding the PostToolUse hook it
 * switches `endless.enabled` on in RECALL_HOME/config.json; `recall uninstall --endless` switches it off.
 */
import { getPath } from '../config/config-keys.js';
import { setPath } from '../config/env-overrides.js';
import { readConfigFile } from '../config/load-config.js';
import { writeConfigFile } from '../config/edit-config-file.js';

export interface EndlessSwitch {
  configFile: string;
  enabled: boolean;
  /** False when the file already said so (or on a dry run). */
  changed: boolean;
}

export function switchEndlessMode(configFile: string, enabled: boolean, { dryRun }: { dryRun: boolean }): EndlessSwitch {
  const raw = readConfigFile(configFile);
  const current = getPath(raw, ['endless', 'enabled']) === true;
  if (current === enabled) return { configFile, enabled, changed: false };
  if (!dryRun) {
    setPath(raw, ['endless', 'enabled'], enabled);
    writeConfigFile(configFile, raw);
  }
  return { configFile, enabled, changed: !dryRun };
}

export function describeEndlessSwitch(result: EndlessSwitch, dryRun: boolean): string {
  const state = result.enabled ? 'on' : 'off';
  if (dryRun) return `Endless Mode would be switched ${state} in ${result.configFile}`;
  return result.changed ? `Endless Mode switched ${state} in ${result.configFile}` : `Endless Mode already ${state} in ${result.configFile}`;
}
