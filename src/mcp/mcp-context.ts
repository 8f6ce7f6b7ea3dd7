/** What every MCP tool works with: the runtime (lazy adapters), the log, and the project the server serves. */
import type { Logger } from '../core/log.js';
import type { ResolvedProject } from '../project/resolve-project.js';
import type { Runtime } from '../app/runtime.js';

export interface McpContext {
  runtime: Runtime;
  logger: Logger;
  /** The server's working directory; relative paths and the default scope start here. */
  cwd: string;
  /** The project of `cwd`, decided once at start (the global namespace outside any project). */
  project: ResolvedProject;
}
