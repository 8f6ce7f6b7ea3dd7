/** Node.js version check. Pure. */
import type { CheckResult } from './check-result.js';

export const MIN_NODE_VERSION = '20.11.0';

/** `version` as `process.version` gives it, e.g. `v20.11.1`. */
export function checkNodeVersion(version: string, minimum: string = MIN_NODE_VERSION): CheckResult {
  const base = { id: 'node', title: 'Node.js' } as const;
  const have = parseVersion(version);
  if (have === null) return { ...base, status: 'warn', detail: `cannot read the version "${version}"`, fix: `use Node.js ${minimum} or newer` };
  if (compareVersions(have, parseVersion(minimum) ?? [0, 0, 0]) < 0) {
    return { ...base, status: 'fail', detail: `${version} is too old; recall needs ${minimum} or newer`, fix: `install Node.js 20.11 or newer (for example \`nvm install 20\`)` };
  }
  return { ...base, status: 'ok', detail: version };
}

function parseVersion(text: string): [number, number, number] | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
