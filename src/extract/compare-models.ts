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
  seconds: number;
  /** What storing the memories would do to the store as it is now; null when it could not be looked at. */
  effect: StoreEffect | null;
}

export interface StoreEffect {
  /** Memories the store already holds (seen again). */
  duplicates: number;
  /** Memories that would replace a stored one (a changed decision). */
  supersedes: number;
  /** New memories. */
  fresh: number;
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
  /** Summed over the sessions whose effect could be looked at; null when none could. */
  effect: StoreEffect | null;
  secondsPerSession: number;
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarizeRuns(runs: readonly SessionRun[], models: readonly string[]): ModelSummary[] {
  return models.map((model) => {
    const mine = runs.filter((run) => run.model === model);
    const byType = Object.fromEntries(MEMORY_TYPES.map((type) => [type, 0])) as Record<MemoryType, number>;
    for (const run of mine) for (const memory of run.memories) byType[memory.type] += 1;
    const memories = mine.reduce((n, run) => n + run.memories.length, 0);
    const effects = mine.map((run) => run.effect).filter((effect): effect is StoreEffect => effect !== null);
    const sessions = mine.length;
    return {
      model,
      sessions,
      memories,
      memoriesPerSession: sessions === 0 ? 0 : round(memories / sessions),
      byType,
      dropped: mine.reduce((n, run) => n + run.dropped, 0),
      schemaRetries: mine.filter((run) => run.schemaRetry).length,
      failedSessions: mine.filter((run) => run.failed).length,
      effect:
        effects.length === 0
          ? null
          : effects.reduce((sum, e) => ({ duplicates: sum.duplicates + e.duplicates, supersedes: sum.supersedes + e.supersedes, fresh: sum.fresh + e.fresh }), { duplicates: 0, supersedes: 0, fresh: 0 }),
      secondsPerSession: sessions === 0 ? 0 : round(mine.reduce((n, run) => n + run.seconds, 0) / sessions),
    };
  });
}

/** The side-by-side table: one row per figure, one column per model. */
export function comparisonRows(summaries: readonly ModelSummary[]): string[][] {
  const row = (label: string, cell: (s: ModelSummary) => string | number): string[] => [label, ...summaries.map((s) => String(cell(s)))];
  const effect = (pick: (e: StoreEffect) => number) => (s: ModelSummary) => (s.effect === null ? 'n/a' : pick(s.effect));
  return [
    row('sessions', (s) => s.sessions),
    row('memories per session', (s) => s.memoriesPerSession),
    ...MEMORY_TYPES.map((type) => row(`  ${type}`, (s) => s.byType[type])),
    row('over the cap, left out', (s) => s.dropped),
    row('schema failures (asked again)', (s) => s.schemaRetries),
    row('sessions with no usable answer', (s) => s.failedSessions),
    row('duplicates of stored memories', effect((e) => e.duplicates)),
    row('would supersede a stored one', effect((e) => e.supersedes)),
    row('new memories', effect((e) => e.fresh)),
    row('seconds per session', (s) => s.secondsPerSession),
  ];
}
