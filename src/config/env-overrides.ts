/**
 * The environment's part of the configuration: which variables override which config keys, and the
 * one function that lays them over config.json's content. No imports: the hooks' fast readers use it
 * too, so the CLI, the doctor and the hooks read the environment alike.
 */

/** Environment variables and the config path they override. */
export const ENV_OVERRIDES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['OLLAMA_HOST', ['ollama', 'host']],
  ['RECALL_OLLAMA_LLM_MODEL', ['ollama', 'llmModel']],
  ['RECALL_OLLAMA_TIMEOUT_MS', ['ollama', 'timeoutMs']],
  ['RECALL_OLLAMA_NUM_CTX', ['ollama', 'numCtx']],
  ['RECALL_EMBEDDER', ['embedder', 'id']],
  ['RECALL_ALLOW_MODEL_DOWNLOAD', ['embedder', 'allowDownload']],
  ['RECALL_DEDUPE_THRESHOLD', ['dedupe', 'threshold']],
  ['RECALL_SUPERSEDE_BAND', ['dedupe', 'supersedeBand']],
  ['RECALL_EXTRACT_MAX_MEMORIES', ['extract', 'maxMemories']],
  ['RECALL_MAX_ATTEMPTS', ['queue', 'maxAttempts']],
  ['RECALL_BACKOFF_MS', ['queue', 'backoffMs']],
  ['RECALL_WORKER_LINGER_MS', ['queue', 'lingerMs']],
  ['RECALL_LOCK_STALE_MS', ['queue', 'lockStaleMs']],
  ['RECALL_JOB_TIMEOUT_MS', ['queue', 'jobTimeoutMs']],
  ['RECALL_MAX_CRASHES', ['queue', 'maxCrashes']],
  ['RECALL_TRANSCRIPT_MAX_LINE_BYTES', ['transcript', 'maxLineBytes']],
  ['RECALL_CONTEXT_MAX_CHARS', ['context', 'maxChars']],
  ['RECALL_ENDLESS_MODE', ['endless', 'enabled']],
  ['RECALL_ENDLESS_MIN_CHARS', ['endless', 'minChars']],
  ['RECALL_ENDLESS_READ_MIN_CHARS', ['endless', 'readMinChars']],
  ['RECALL_SYNC_TIMEOUT_MS', ['endless', 'syncTimeoutMs']],
  ['RECALL_ENDLESS_KEEP_RECENT', ['endless', 'keepRecent']],
  ['RECALL_VECTOR_INDEX_MIN_ROWS', ['store', 'vectorIndexMinRows']],
  ['RECALL_OPTIMIZE_EVERY_VERSIONS', ['store', 'optimizeEveryVersions']],
  ['RECALL_STORE_URI', ['store', 'uri']],
  ['RECALL_S3_ENDPOINT', ['store', 's3', 'endpoint']],
  ['AWS_REGION', ['store', 's3', 'region']],
  ['AWS_ACCESS_KEY_ID', ['store', 's3', 'accessKeyId']],
  ['AWS_SECRET_ACCESS_KEY', ['store', 's3', 'secretAccessKey']],
  ['AWS_SESSION_TOKEN', ['store', 's3', 'sessionToken']],
];

/** The Ollama defaults, shared by the schema and the hooks' fast reader. */
export const OLLAMA_DEFAULTS = Object.freeze({ host: 'http://127.0.0.1:11434', numCtx: 8192, timeoutMs: 180_000 });

/**
 * config.json's content with every set (non-blank) override laid over it: values trimmed, and
 * true/yes/on and false/no/off read as booleans; everything else stays a string for the schema to
 * coerce or refuse. The input is not changed.
 */
export function applyEnvOverrides(fileRaw: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = structuredClone(fileRaw);
  for (const [name, path] of ENV_OVERRIDES) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    setPath(out, path, parseEnvValue(value));
  }
  return out;
}

/** The words the environment may use for a boolean; undefined for anything else. */
export function parseEnvFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^\s*(true|yes|on)\s*$/i.test(value)) return true;
  if (/^\s*(false|no|off)\s*$/i.test(value)) return false;
  return undefined;
}

function parseEnvValue(value: string): unknown {
  return parseEnvFlag(value) ?? value;
}

export function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
