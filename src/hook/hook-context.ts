import type { StdinResult } from './read-stdin.js';

/** Everything a hook handler needs, read once at the edge. */
export interface HookContext {
  home: string;
  env: NodeJS.ProcessEnv;
  args: readonly string[];
  stdin: StdinResult;
}
