/**
 * The configuration keys as plain data: for each key its type, default, bounds, environment variable
 * and description. The zod schema (schema.ts), the hooks' built-ins-only reader (read-known-keys.ts),
 * `recall config` and the README table are all made from this one table. No imports: hooks load it.
 */

interface KeyCommon {
  description: string;
  /** The environment variable that overrides the key. */
  env?: string;
  /** `recall config` and `recall doctor` never print the value. */
  secret?: boolean;
}

export interface StringKeySpec extends KeyCommon {
  kind: 'string';
  default?: string;
  /** No default: the key may stay unset. */
  optional?: boolean;
  minLength?: number;
  pattern?: RegExp;
  patternMessage?: string;
  /** Normalised after validation (an Ollama base URL, read as Ollama reads OLLAMA_HOST). */
  format?: 'ollama-host';
}

export interface NumberKeySpec extends KeyCommon {
  /** `int`: whole numbers only. */
  kind: 'int' | 'number';
  default: number;
  min?: number;
  max?: number;
  minMessage?: string;
  maxMessage?: string;
}

export interface BooleanKeySpec extends KeyCommon {
  kind: 'boolean';
  default: boolean;
}

export interface ListKeySpec extends KeyCommon {
  /** A list of strings. */
  kind: 'list';
  default: readonly string[];
  itemMinLength?: number;
}

export interface EnumKeySpec extends KeyCommon {
  kind: 'enum';
  choices: readonly string[];
  default: string;
}

export type KeySpec = StringKeySpec | NumberKeySpec | BooleanKeySpec | ListKeySpec | EnumKeySpec;

export interface KeyGroup {
  readonly [name: string]: KeySpec | KeyGroup;
}

export const CONFIG_KEYS = {
  ollama: {
    host: {
      kind: 'string', default: 'http://127.0.0.1:11434', format: 'ollama-host', env: 'OLLAMA_HOST',
      description:
        'Ollama base URL (env OLLAMA_HOST), read as Ollama reads it: `host` or `host:port` (port 11434 unless given), `:port` (this machine), or an `http://` / `https://` URL (that scheme\'s own port unless given).',
    },
    llmModel: {
      kind: 'string', optional: true, minLength: 1, env: 'RECALL_OLLAMA_LLM_MODEL',
      description:
        'Ollama model that extracts memories; no default (env RECALL_OLLAMA_LLM_MODEL).',
    },
    timeoutMs: {
      kind: 'int', default: 180_000, min: 1, env: 'RECALL_OLLAMA_TIMEOUT_MS',
      description:
        'Upper bound for one model call (env RECALL_OLLAMA_TIMEOUT_MS).',
    },
    numCtx: {
      kind: 'int', default: 8192, min: 1, env: 'RECALL_OLLAMA_NUM_CTX',
      description:
        'Minimum context window sent as options.num_ctx; raised to fit the prompt (env RECALL_OLLAMA_NUM_CTX).',
    },
  },
  embedder: {
    id: {
      kind: 'string', default: 'transformers:Xenova/all-MiniLM-L6-v2', pattern: /^(transformers:.+|ollama:.+|hash(:\d+)?)$/, patternMessage: 'must be transformers:<model>, ollama:<model> or hash[:<dim>]', env: 'RECALL_EMBEDDER',
      description:
        'Embedding provider and model (env RECALL_EMBEDDER).',
    },
    allowDownload: {
      kind: 'boolean', default: true, env: 'RECALL_ALLOW_MODEL_DOWNLOAD',
      description:
        'Let the transformers embedder download its model once into RECALL_HOME/models (env RECALL_ALLOW_MODEL_DOWNLOAD).',
    },
  },
  dedupe: {
    threshold: {
      kind: 'number', default: 0.85, min: 0, max: 1, env: 'RECALL_DEDUPE_THRESHOLD',
      description:
        'Cosine similarity at or above which a memory counts as a duplicate (env RECALL_DEDUPE_THRESHOLD).',
    },
    supersedeBand: {
      kind: 'number', default: 0.5, min: 0, max: 1, env: 'RECALL_SUPERSEDE_BAND',
      description:
        'Cosine similarity at or above which a stored memory is compared with a new one to tell a repeat, a changed decision (the new one supersedes it) or a different memory (env RECALL_SUPERSEDE_BAND).',
    },
  },
  transcript: {
    maxChars: {
      kind: 'int', default: 12_000, min: 1,
      description:
        'Characters of rendered transcript sent to the model.',
    },
    minChars: {
      kind: 'int', default: 100, min: 0,
      description:
        'Shorter transcripts are skipped.',
    },
    maxLineBytes: {
      kind: 'int', default: 16 * 1024 * 1024, min: 1, env: 'RECALL_TRANSCRIPT_MAX_LINE_BYTES',
      description:
        'Longest transcript line read, in bytes; a job whose transcript has a longer line fails with that reason instead of exhausting the worker\'s memory (env RECALL_TRANSCRIPT_MAX_LINE_BYTES).',
    },
  },
  extract: {
    maxMemories: {
      kind: 'int', default: 8, min: 1, max: 50, env: 'RECALL_EXTRACT_MAX_MEMORIES',
      description:
        'Most memories kept from one session; past it the least important go (env RECALL_EXTRACT_MAX_MEMORIES).',
    },
  },
  queue: {
    maxAttempts: {
      kind: 'int', default: 6, min: 1, env: 'RECALL_MAX_ATTEMPTS',
      description:
        'Attempts before a job moves to the failed folder (env RECALL_MAX_ATTEMPTS).',
    },
    backoffMs: {
      kind: 'int', default: 30_000, min: 1, env: 'RECALL_BACKOFF_MS',
      description:
        'First retry delay; doubles per attempt (env RECALL_BACKOFF_MS).',
    },
    lingerMs: {
      kind: 'int', default: 600_000, min: 0, env: 'RECALL_WORKER_LINGER_MS',
      description:
        'How long a worker waits for a queued retry before it exits (env RECALL_WORKER_LINGER_MS).',
    },
    lockStaleMs: {
      kind: 'int', default: 10_000, min: 5000, env: 'RECALL_LOCK_STALE_MS',
      description:
        'A lock not refreshed for this long is taken over; the store lock only once its holder process is gone, or after 10 times this long (env RECALL_LOCK_STALE_MS).',
    },
    jobTimeoutMs: {
      kind: 'int', default: 30 * 60_000, min: 1, env: 'RECALL_JOB_TIMEOUT_MS',
      description:
        'Time one capture job may run; past it the worker records the job as stopped and exits, so nothing holds the queue (env RECALL_JOB_TIMEOUT_MS).',
    },
    maxCrashes: {
      kind: 'int', default: 2, min: 1, env: 'RECALL_MAX_CRASHES',
      description:
        'A job whose worker stopped mid-job (crashed, killed, or past jobTimeoutMs) this many times moves to the failed folder (env RECALL_MAX_CRASHES).',
    },
  },
  context: {
    maxChars: {
      kind: 'int', default: 6_000, min: 200, max: 10_000, env: 'RECALL_CONTEXT_MAX_CHARS',
      description:
        'Character budget of the SessionStart context; Claude Code caps it at 10,000 (env RECALL_CONTEXT_MAX_CHARS).',
    },
    includeGlobal: {
      kind: 'boolean', default: true,
      description:
        'Add global (project-less) memories to the SessionStart context.',
    },
    changesDays: {
      kind: 'int', default: 7, min: 0, max: 365, env: 'RECALL_CONTEXT_CHANGES_DAYS',
      description:
        'For this many days after a memory replaced another, the SessionStart context names the change ("now X, was Y, since <date>"); 0 names none (env RECALL_CONTEXT_CHANGES_DAYS).',
    },
  },
  store: {
    uri: {
      kind: 'string', default: '', env: 'RECALL_STORE_URI',
      description:
        'Where memories live: empty for RECALL_HOME/db, another local folder, or s3://bucket/prefix for one store shared by several machines (env RECALL_STORE_URI).',
    },
    s3: {
      endpoint: {
        kind: 'string', default: '', env: 'RECALL_S3_ENDPOINT',
        description:
          'Base URL of an S3-compatible server (MinIO, Ceph, R2...), path-style; empty for AWS S3 (env RECALL_S3_ENDPOINT).',
      },
      region: {
        kind: 'string', default: 'us-east-1', minLength: 1, env: 'AWS_REGION',
        description:
          'Region of the bucket (env AWS_REGION).',
      },
      accessKeyId: {
        kind: 'string', default: '', env: 'AWS_ACCESS_KEY_ID',
        description:
          'Access key id for s3:// stores (env AWS_ACCESS_KEY_ID).',
      },
      secretAccessKey: {
        kind: 'string', default: '', secret: true, env: 'AWS_SECRET_ACCESS_KEY',
        description:
          'Secret access key for s3:// stores; prefer the environment over the file (env AWS_SECRET_ACCESS_KEY).',
      },
      sessionToken: {
        kind: 'string', default: '', secret: true, env: 'AWS_SESSION_TOKEN',
        description:
          'Session token for temporary credentials (env AWS_SESSION_TOKEN).',
      },
    },
    vectorIndexMinRows: {
      kind: 'int', default: 20_000, min: 256, minMessage: 'must be at least 256 (a vector index is trained on 256 rows or more)', env: 'RECALL_VECTOR_INDEX_MIN_ROWS',
      description:
        'Past this many memories the worker builds a vector index (cosine; IVF-RQ, or IVF-PQ for dimensions not divisible by 8) and keeps it current; the index on ids comes here or at 10,000 memories, whichever is sooner (env RECALL_VECTOR_INDEX_MIN_ROWS).',
    },
    optimizeEveryVersions: {
      kind: 'int', default: 50, min: 1, env: 'RECALL_OPTIMIZE_EVERY_VERSIONS',
      description:
        'The worker compacts the table and prunes old versions once this many versions pile up (env RECALL_OPTIMIZE_EVERY_VERSIONS).',
    },
  },
  serve: {
    storeHostThreads: {
      kind: 'int', default: 96, min: 0, env: 'RECALL_SERVE_STORE_HOST_THREADS',
      description:
        '`recall serve` reads the store in a child process and replaces it, after starting and warming the next one, once that process has more threads than this (LanceDB\'s read threads otherwise only grow); 0 reads the store in the daemon itself (env RECALL_SERVE_STORE_HOST_THREADS).',
    },
  },
  search: {
    limit: {
      kind: 'int', default: 10, min: 1,
      description:
        'Results `recall search` shows by default.',
    },
    minScore: {
      kind: 'number', default: 0, min: 0, max: 1,
      description:
        'Drop search results scoring below this (0..1).',
    },
  },
  endless: {
    enabled: {
      kind: 'boolean', default: false, env: 'RECALL_ENDLESS_MODE',
      description:
        'Endless Mode: the PostToolUse hook replaces large tool outputs with compact observations (env RECALL_ENDLESS_MODE).',
    },
    minChars: {
      kind: 'int', default: 4_000, min: 1, env: 'RECALL_ENDLESS_MIN_CHARS',
      description:
        'Tool outputs shorter than this many characters are left alone (env RECALL_ENDLESS_MIN_CHARS).',
    },
    readMinChars: {
      kind: 'int', default: 16_000, min: 1, env: 'RECALL_ENDLESS_READ_MIN_CHARS',
      description:
        'Threshold for Read results, higher because edits need exact text (env RECALL_ENDLESS_READ_MIN_CHARS).',
    },
    syncTimeoutMs: {
      kind: 'int', default: 60_000, min: 1, max: 85_000, maxMessage: 'must stay below the PostToolUse hook timeout of 90 s (at most 85000)', env: 'RECALL_SYNC_TIMEOUT_MS',
      description:
        'The hook answers within this, with a deterministic reduction when the model is late (env RECALL_SYNC_TIMEOUT_MS).',
    },
    denylist: {
      kind: 'list', default: [], itemMinLength: 1,
      description:
        'Tool names (exact, or a prefix ending in *) never compressed, live or by fork; the live hook never compresses Edit, Write, MultiEdit or NotebookEdit output either.',
    },
    keepRecent: {
      kind: 'int', default: 3, min: 0, env: 'RECALL_ENDLESS_KEEP_RECENT',
      description:
        '`recall endless fork` keeps this many of the last tool results, and the inputs of their calls, whole (env RECALL_ENDLESS_KEEP_RECENT).',
    },
    forkMinChars: {
      kind: 'int', default: 1_000, min: 1,
      description:
        '`recall endless fork` also compresses, from this size up, results of tools other than Read, Read or Write/Edit results whose file the session later changed or read again, and the inputs of past Write/Edit calls.',
    },
  },
} as const satisfies KeyGroup;

/** One key of the table with its dotted name and path. */
export interface TableKey {
  key: string;
  path: readonly string[];
  spec: KeySpec;
}

export function isKeySpec(node: KeySpec | KeyGroup): node is KeySpec {
  return typeof node.kind === 'string' && typeof node.description === 'string';
}

/** Every key of a table, in table order. */
export function listTableKeys(group: KeyGroup = CONFIG_KEYS, prefix: readonly string[] = []): TableKey[] {
  return Object.entries(group).flatMap(([name, node]) => {
    const path = [...prefix, name];
    return isKeySpec(node) ? [{ key: path.join('.'), path, spec: node }] : listTableKeys(node, path);
  });
}

/** The key named `key` (dotted), or undefined. */
export function findTableKey(key: string): TableKey | undefined {
  return listTableKeys().find((k) => k.key === key);
}

type ValueOf<S> = S extends { kind: 'string' }
  ? string
  : S extends { kind: 'int' | 'number' }
    ? number
    : S extends { kind: 'boolean' }
      ? boolean
      : S extends { kind: 'list' }
        ? string[]
        : S extends { kind: 'enum'; choices: readonly (infer C)[] }
          ? C
          : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The typed values a table describes: a group per group, optional keys optional. */
export type ConfigValues<G> = Simplify<
  {
    -readonly [K in keyof G as G[K] extends { optional: true } ? never : K]: G[K] extends { kind: string; description: string } ? ValueOf<G[K]> : ConfigValues<G[K]>;
  } & {
    -readonly [K in keyof G as G[K] extends { optional: true } ? K : never]?: ValueOf<G[K]> | undefined;
  }
>;
