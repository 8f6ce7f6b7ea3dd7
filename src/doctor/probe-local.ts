/** Doctor's local I/O: the config file, the state dir, agent settings files, the queue. */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { activeEnvOverrides, findUnknownKeys, salvageConfig, type ConfigProblem } from '../config/evaluate-config.js';
import { readConfigFile } from '../config/load-config.js';
import type { Config } from '../config/schema.js';
import { isRecallError } from '../core/errors.js';
import { folderProblem, stateFolders } from '../core/private-paths.js';
import { currentUid } from '../core/state-paths.js';
import { resolveHome, statePaths, type StatePaths } from '../core/state-paths.js';
import { readSettingsFile } from '../install/settings-file.js';
import { Spool } from '../queue/spool.js';
import type { SettingsFileProbe } from './check-hooks.js';
import type { ConfigProbe } from './check-config.js';
import type { QueueProbe } from './check-queue.js';
import type { StateDirProbe } from './check-state-dir.js';

/** The config as far as it is usable (bad keys fall back to their defaults), plus what was wrong. */
export function probeConfig(env: NodeJS.ProcessEnv): { probe: ConfigProbe; config: Config; paths: StatePaths } {
  const paths = statePaths(resolveHome(env));
  const problems: ConfigProblem[] = [];
  let fileRaw: Record<string, unknown> = {};
  try {
    fileRaw = readConfigFile(paths.configFile);
  } catch (err) {
    problems.push({ key: '(file)', path: [], message: (err as Error).message, source: 'file' });
  }
  const salvaged = salvageConfig(fileRaw, env);
  problems.push(...salvaged.problems);
  return {
    probe: {
      configFile: paths.configFile,
      fileExists: existsSync(paths.configFile),
      problems,
      unknownKeys: findUnknownKeys(fileRaw),
      envOverrides: [...activeEnvOverrides(env).values()],
    },
    config: salvaged.config,
    paths,
  };
}

export function probeStateDir(path: string): StateDirProbe {
  try {
    const stat = statSync(path);
    if (!stat.isDirectory()) return { path, state: 'not-directory' };
    const folderProblems = stateFolders(statePaths(path)).flatMap((folder) => folderProblem(folder) ?? []);
    return { path, state: 'directory', mode: stat.mode, writable: canWrite(path), uid: stat.uid, ownUid: currentUid(), folderProblems };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { path, state: 'error', message: (err as Error).message };
  }
  let parent = dirname(path);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  return { path, state: 'missing', parent, parentWritable: canWrite(parent) };
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Parsed with install's own reader, so doctor and `recall install` agree on what is valid. */
export function probeSettingsFile(path: string): SettingsFileProbe {
  try {
    const snapshot = readSettingsFile(path);
    return snapshot.exists ? { path, state: 'read', settings: snapshot.settings } : { path, state: 'missing' };
  } catch (err) {
    if (isRecallError(err)) return { path, state: 'invalid', message: err.message.replace(/; (fix it first, )?recall changed nothing$/, '') };
    throw err;
  }
}

/** An agent is on this machine when its settings folder exists or its program is on `pathList` (PATH). */
export function probeAgentFound(dir: string, binary: string, pathList: string | undefined): boolean {
  if (existsSync(dir)) return true;
  const names = process.platform === 'win32' ? [`${binary}.cmd`, `${binary}.exe`, binary] : [binary];
  return (pathList ?? '').split(delimiter).some((folder) => folder !== '' && names.some((name) => isProgram(join(folder, name))));
}

function isProgram(path: string): boolean {
  try {
    return statSync(path).isFile() && (process.platform === 'win32' || (accessSync(path, constants.X_OK), true));
  } catch {
    return false;
  }
}

export function probeQueue(paths: StatePaths): QueueProbe {
  const spool = new Spool(paths);
  const counts = spool.counts();
  const [first] = spool.names('pending');
  const enqueuedAt = first ? spool.read('pending', first).job?.enqueuedAt : undefined;
  const oldestPendingAt = enqueuedAt && Number.isFinite(Date.parse(enqueuedAt)) ? new Date(enqueuedAt) : spool.oldest('pending');
  return { ...counts, oldestPendingAt };
}
