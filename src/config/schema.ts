/** The one configuration schema: every key has a default (or is explicitly optional) and a description. */
import { z } from 'zod';
import { ENDLESS_DEFAULTS } from '../endless/endless-defaults.js';
import { OLLAMA_DEFAULTS } from './env-overrides.js';

const positiveInt = z.coerce.number().int().positive();

export const configSchema = z.object({
  ollama: z
    .object({
      host: z.string().default(OLLAMA_DEFAULTS.host).describe('Ollama base URL (env OLLAMA_HOST), read as Ollama reads it: `host` or `host:port` (port 11434 unless given), `:port` (this machine), or an `http://` / `https://` URL (that scheme\'s own port unless given).'),
      llmModel: z
        .string()
        .min(1)
        .optional()
        .describe('Ollama model that extracts memories; no default (env RECALL_OLLAMA_LLM_MODEL).'),
      timeoutMs: positiveInt.default(OLLAMA_DEFAULTS.timeoutMs).describe('Upper bound for one model call (env RECALL_OLLAMA_TIMEOUT_MS).'),
      numCtx: positiveInt
        .default(OLLAMA_DEFAULTS.numCtx)
        .describe('Minimum context window sent as options.num_ctx; raised to fit the prompt (env RECALL_OLLAMA_NUM_CTX).'),
    })
    .prefault({}),
  embedder: z
    .object({
      id: z
        .string()
        .regex(/^(transformers:.+|ollama:.+|hash(:\d+)?)$/, 'must be transformers:<model>, ollama:<model> or hash[:<dim>]')
        .default('transformers:Xenova/all-MiniLM-L6-v2')
        .describe('Embedding provider and model (env RECALL_EMBEDDER).'),
      allowDownload: z
        .boolean()
        .default(true)
        .describe('Let the transformers embedder download its model once into RECALL_HOME/models (env RECALL_ALLOW_MODEL_DOWNLOAD).'),
    })
    .prefault({}),
  dedupe: z
    .object({
      threshold: z.coerce
        .number()
        .min(0)
        .max(1)
        .default(0.85)
        .describe('Cosine similarity at or above which a memory counts as a duplicate (env RECALL_DEDUPE_THRESHOLD).'),
      supersedeBand: z.coerce
        .number()
        .min(0)
        .max(1)
        .default(0.5)
        .describe('Cosine similarity at or above which a stored memory is compared with a new one to tell a repeat, a changed decision (the new one supersedes it) or a different memory (env RECALL_SUPERSEDE_BAND).'),
    })
    .prefault({}),
  transcript: z
    .object({
      maxChars: positiveInt.default(12_000).describe('Characters of rendered transcript sent to the model.'),
      minChars: z.coerce.number().int().min(0).default(100).describe('Shorter transcripts are skipped.'),
      maxLineBytes: positiveInt
        .default(16 * 1024 * 1024)
        .describe('Longest transcript line read, in bytes; a job whose transcript has a longer line fails with that reason instead of exhausting the worker\'s memory (env RECALL_TRANSCRIPT_MAX_LINE_BYTES).'),
    })
    .prefault({}),
  extract: z
    .object({
      maxMemories: positiveInt
        .max(50)
        .default(8)
        .describe('Most memories kept from one session; past it the least important go (env RECALL_EXTRACT_MAX_MEMORIES).'),
    })
    .prefault({}),
  queue: z
    .object({
      maxAttempts: positiveInt.default(6).describe('Attempts before a job moves to the failed folder (env RECALL_MAX_ATTEMPTS).'),
      backoffMs: positiveInt.default(30_000).describe('First retry delay; doubles per attempt (env RECALL_BACKOFF_MS).'),
      lingerMs: z.coerce
        .number()
        .int()
        .min(0)
        .default(600_000)
        .describe('How long a worker waits for a queued retry before it exits (env RECALL_WORKER_LINGER_MS).'),
      lockStaleMs: z.coerce
        .number()
        .int()
        .min(5000)
        .default(10_000)
        .describe('A lock not refreshed for this long is taken over; the store lock only once its holder process is gone, or after 10 times this long (env RECALL_LOCK_STALE_MS).'),
      jobTimeoutMs: positiveInt
        .default(30 * 60_000)
        .describe('Time one capture job may run; past it the worker records the job as stopped and exits, so nothing holds the queue (env RECALL_JOB_TIMEOUT_MS).'),
      maxCrashes: positiveInt
        .default(2)
        .describe('A job whose worker stopped mid-job (crashed, killed, or past jobTimeoutMs) this many times moves to the failed folder (env RECALL_MAX_CRASHES).'),
    })
    .prefault({}),
  context: z
    .object({
      maxChars: z.coerce
        .number()
        .int()
        .min(200)
        .max(10_000)
        .default(6_000)
        .describe('Character budget of the SessionStart context; Claude Code caps it at 10,000 (env RECALL_CONTEXT_MAX_CHARS).'),
      includeGlobal: z.boolean().default(true).describe('Add global (project-less) memories to the SessionStart context.'),
    })
    .prefault({}),
  store: z
    .object({
      uri: z
        .string()
        .default('')
        .describe('Where memories live: empty for RECALL_HOME/db, another local folder, or s3://bucket/prefix for one store shared by several machines (env RECALL_STORE_URI).'),
      s3: z
        .object({
          endpoint: z
            .string()
            .default('')
            .describe('Base URL of an S3-compatible server (MinIO, Ceph, R2...), path-style; empty for AWS S3 (env RECALL_S3_ENDPOINT).'),
          region: z.string().min(1).default('us-east-1').describe('Region of the bucket (env AWS_REGION).'),
          accessKeyId: z.string().default('').describe('Access key id for s3:// stores (env AWS_ACCESS_KEY_ID).'),
          secretAccessKey: z
            .string()
            .default('')
            .describe('Secret access key for s3:// stores; prefer the environment over the file (env AWS_SECRET_ACCESS_KEY).'),
          sessionToken: z.string().default('').describe('Session token for temporary credentials (env AWS_SESSION_TOKEN).'),
        })
        .prefault({}),
      vectorIndexMinRows: z.coerce
        .number()
        .int()
        .min(256, 'must be at least 256 (a vector index is trained on 256 rows or more)')
        .default(20_000)
        .describe('Past this many memories the worker builds a vector index (cosine; IVF-RQ, or IVF-PQ for dimensions not divisible by 8) and keeps it current; the index on ids comes here or at 10,000 memories, whichever is sooner (env RECALL_VECTOR_INDEX_MIN_ROWS).'),
      optimizeEveryVersions: positiveInt
        .default(50)
        .describe('The worker compacts the table and prunes old versions once this many versions pile up (env RECALL_OPTIMIZE_EVERY_VERSIONS).'),
    })
    .prefault({}),
  search: z
    .object({
      limit: positiveInt.default(10).describe('Results `recall search` shows by default.'),
      minScore: z.coerce.number().min(0).max(1).default(0).describe('Drop search results scoring below this (0..1).'),
    })
    .prefault({}),
  endless: z
    .object({
      enabled: z
        .boolean()
        .default(ENDLESS_DEFAULTS.enabled)
        .describe('Endless Mode: the PostToolUse hook replaces large tool outputs with compact observations (env RECALL_ENDLESS_MODE).'),
      minChars: positiveInt
        .default(ENDLESS_DEFAULTS.minChars)
        .describe('Tool outputs shorter than this many characters are left alone (env RECALL_ENDLESS_MIN_CHARS).'),
      readMinChars: positiveInt
        .default(ENDLESS_DEFAULTS.readMinChars)
        .describe('Threshold for Read results, higher because edits need exact text (env RECALL_ENDLESS_READ_MIN_CHARS).'),
      syncTimeoutMs: positiveInt
        .max(ENDLESS_DEFAULTS.maxSyncTimeoutMs, 'must stay below the PostToolUse hook timeout of 90 s (at most 85000)')
        .default(ENDLESS_DEFAULTS.syncTimeoutMs)
        .describe('The hook answers within this, with a deterministic reduction when the model is late (env RECALL_SYNC_TIMEOUT_MS).'),
      denylist: z
        .array(z.string().min(1))
        .default([...ENDLESS_DEFAULTS.denylist])
        .describe('Tool names (exact, or a prefix ending in *) never compressed, live or by fork; the live hook never compresses Edit, Write, MultiEdit or NotebookEdit output either.'),
      keepRecent: z.coerce
        .number()
        .int()
        .min(0)
        .default(ENDLESS_DEFAULTS.keepRecent)
        .describe('`recall endless fork` keeps this many of the last tool results, and the inputs of their calls, whole (env RECALL_ENDLESS_KEEP_RECENT).'),
      forkMinChars: positiveInt
        .default(ENDLESS_DEFAULTS.forkMinChars)
        .describe('`recall endless fork` also compresses, from this size up, results of tools other than Read, Read or Write/Edit results whose file the session later changed or read again, and the inputs of past Write/Edit calls.'),
    })
    .prefault({}),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

/** Keys whose values `recall config` and `recall doctor` never print. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['store.s3.secretAccessKey', 'store.s3.sessionToken']);
