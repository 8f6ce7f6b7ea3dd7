/**
 * `recall eval`: what each model made of the same sessions, summed up per model so a user can choose one.
 * Pure: the command runs the models and the store look-ups, this turns their results into figures.
 */
import { MEMORY_TYPES } from '../core/memory.js';
import type { CandidateMemory, MemoryType } from '../core/memory.js';

/** What one model made of one session. */
export interface SessionRun {
  model: string;
  session: string;
  memories: readonly CandidateMemory[];
  /** Memories past extract.maxMemories that were left out. */
  dropped: number;
  /** The answer to the schema-constrained request could not be used, so the model was asked again without it. */
  schemaRetry: boolean;
  /** Neither answer could be used: the session gave nothing. */
  failed: boolean;
  /** The model could not be asked at all (missing, the server erred or timed out): its code and words. */
  error: RunError | null;
  seconds: number;
  /** Ollama's figures of the answers: tokens written and the seconds spent writing them. */
  outputTokens: number;
  outputSeconds: number;
  /** What storing the memories would do to the store as it is now; null when it could not be looked at. */
  effect: StoreEffect | null;
  /** Per memory, what storing it would do (empty when the store could not be looked at). */
  outcomes: readonly MemoryOutcome[];
}

export interface RunError {
  code: string;
  message: string;
}

export interface StoreEffect {
  /** Memories the store already holds (seen again). */
  duplicates: number;
  /** Memories that would replace a stored one (a changed decision). */
  supersedes: number;
  /** New memories. */
  fresh: number;
}

export interface StoredText {
  id: string;
  content: string;
}

/** One memory a model would store: new, already held (`duplicateOf`), or hiding stored ones (`replaces`). */
export interface MemoryOutcome {
  content: string;
  type: MemoryType;
  verdict: 'new' | 'duplicate' | 'replaces';
  duplicateOf: StoredText | null;
  replaces: readonly StoredText[];
}

/** A run's memories with what storing each would do; each is new when the store could not be looked at. */
export function outcomesOf(run: SessionRun): readonly MemoryOutcome[] {
  if (run.outcomes.length > 0) return run.outcomes;
  return run.memories.map((m) => ({ content: m.content, type: m.type, verdict: 'new', duplicateOf: null, replaces: [] }));
}

export interface ModelSummary {
  model: string;
  sessions: number;
  memories: number;
  memoriesPerSession: number;
  byType: Record<MemoryType, number>;
  dropped: number;
  schemaRetries: number;
  failedSessions: number;
  /** Sessions the model could not be asked about, and the first error that stopped it. */
  erroredSessions: number;
  error: RunError | null;
  /** Summed over the sessions whose effect could be looked at; null when none could. */
  effect: StoreEffect | null;
  /** The stored memories this model's memories would replace, each with the text of its replacement. */
  replaced: Array<StoredText & { by: string }>;
  secondsPerSession: number;
  /** eval_count over eval_duration of all its answers; null when the server gave neither. */
  tokensPerSecond: number | null;
  /** The most memory the model took while loaded (`/api/ps`), in bytes; null when the server did not say. */
  peakMemoryBytes: number | null;
  /** Of its memories, how many each other model also found (same session, same meaning), and how many any other did. */
  overlap: Record<string, number>;
  sharedWithAny: number;
}

/** What the command measured besides the runs: peak memory per model, and the overlap (model-overlap.ts). */
export interface RunExtras {
  peakMemoryBytes: ReadonlyMap<string, number>;
  overlap: ReadonlyMap<string, { withModel: Record<string, number>; withAny: number }>;
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarizeRuns(runs: readonly SessionRun[], models: readonly string[], extras?: RunExtras): ModelSummary[] {
  return models.map((model) => {
    const all = runs.filter((run) => run.model === model);
    const mine = all.filter((run) => run.error === null);
    const byType = Object.fromEntries(MEMORY_TYPES.map((type) => [type, 0])) as Record<MemoryType, number>;
    for (const run of mine) for (const memory of run.memories) byType[memory.type] += 1;
    const memories = mine.reduce((n, run) => n + run.memories.length, 0);
    const effects = mine.map((run) => run.effect).filter((effect): effect is StoreEffect => effect !== null);
    const sessions = mine.length;
    const outputSeconds = all.reduce((n, run) => n + run.outputSeconds, 0);
    const overlap = extras?.overlap.get(model);
    return {
      model,
      sessions,
      memories,
      memoriesPerSession: sessions === 0 ? 0 : round(memories / sessions),
      byType,
      dropped: mine.reduce((n, run) => n + run.dropped, 0),
      schemaRetries: mine.filter((run) => run.schemaRetry).length,
      failedSessions: mine.filter((run) => run.failed).length,
      erroredSessions: all.length - mine.length,
      error: all.find((run) => run.error !== null)?.error ?? null,
      effect:
        effects.length === 0
          ? null
          : effects.reduce((sum, e) => ({ duplicates: sum.duplicates + e.duplicates, supersedes: sum.supersedes + e.supersedes, fresh: sum.fresh + e.fresh }), { duplicates: 0, supersedes: 0, fresh: 0 }),
      replaced: mine.flatMap((run) => run.outcomes.flatMap((o) => o.replaces.map((r) => ({ ...r, by: o.content })))),
      secondsPerSession: sessions === 0 ? 0 : round(mine.reduce((n, run) => n + run.seconds, 0) / sessions),
      tokensPerSecond: outputSeconds > 0 ? round(all.reduce((n, run) => n + run.outputTokens, 0) / outputSeconds) : null,
      peakMemoryBytes: extras?.peakMemoryBytes.get(model) ?? null,
      overlap: overlap?.withModel ?? {},
      sharedWithAny: overlap?.withAny ?? 0,
    };
  });
}

/** The side-by-side table: one row per figure, one column per model. */
export function comparisonRows(summaries: readonly ModelSummary[]): string[][] {
  const row = (label: string, cell: (s: ModelSummary) => string | number): string[] => [label, ...summaries.map((s) => (s.sessions === 0 && s.error !== null ? 'failed' : String(cell(s))))];
  const effect = (pick: (e: StoreEffect) => number) => (s: ModelSummary) => (s.effect === null ? 'n/a' : pick(s.effect));
  return [
    row('sessions', (s) => s.sessions),
    row('memories per session', (s) => s.memoriesPerSession),
    ...MEMORY_TYPES.map((type) => row(`  ${type}`, (s) => s.byType[type])),
    row('over the cap, left out', (s) => s.dropped),
    row('schema failures (asked again)', (s) => s.schemaRetries),
    row('sessions with no usable answer', (s) => s.failedSessions),
    row('sessions the model failed on', (s) => s.erroredSessions),
    row('duplicates of stored memories', effect((e) => e.duplicates)),
    row('would supersede a stored one', effect((e) => e.supersedes)),
    row('new memories', effect((e) => e.fresh)),
    ...(summaries.length > 1
      ? [row('also found by another model', (s) => `${s.sharedWithAny} of ${s.memories}`), ...summaries.map((other) => row(`  by ${other.model}`, (s) => (s.model === other.model ? '-' : other.sessions === 0 ? 'n/a' : (s.overlap[other.model] ?? 0))))]
      : []),
    row('seconds per session', (s) => s.secondsPerSession),
    row('tokens per second', (s) => s.tokensPerSecond ?? 'n/a'),
    row('peak memory', (s) => (s.peakMemoryBytes === null ? 'n/a' : formatBytes(s.peakMemoryBytes))),
  ];
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${round(bytes / 1024 ** 3)} GiB` : `${round(bytes / 1024 ** 2)} MiB`;
}
