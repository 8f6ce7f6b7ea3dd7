/**
 * An observation: the compact record of one tool output that the agent reads instead of it (the
 * seeds' shape). Read with the hook path's hand-written validator (core/read-json-object.ts) rather
 * than with zod: this runs inside the PostToolUse hook, where importing zod would cost more start-up
 * time than the whole check (design notes, section 6). Pure.
 */
import { isObject } from '../core/is-object.js';
import { jsonCandidates, withoutThinking } from '../core/lenient-json.js';
import { pickString } from '../core/read-json-object.js';

export const OBSERVATION_TYPES = ['discovery', 'bugfix', 'feature', 'refactor', 'change', 'decision'] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export interface Observation {
  type: ObservationType;
  title: string;
  subtitle: string;
  narrative: string;
  facts: string[];
  concepts: string[];
  files: string[];
}

const LIMITS = { title: 160, subtitle: 240, narrative: 2_000, item: 400, facts: 20, concepts: 10, files: 30 } as const;

/** Sent to Ollama as `format`, so a model that supports structured outputs answers in this shape. */
export const OBSERVATION_JSON_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: {
    type: { type: 'string', enum: [...OBSERVATION_TYPES] },
    title: { type: 'string' },
    subtitle: { type: 'string' },
    narrative: { type: 'string' },
    facts: { type: 'array', items: { type: 'string' } },
    concepts: { type: 'array', items: { type: 'string' } },
    files: { type: 'array', items: { type: 'string' } },
  },
  required: ['type', 'title', 'narrative', 'facts'],
});

export type ObservationCheck = { ok: true; observation: Observation } | { ok: false; problem: string };

/**
 * Accepts what small models get slightly wrong (an unknown or miscased type, a missing optional
 * field, a fact that is a number) and refuses what is unusable: no title, or neither narrative nor facts.
 */
export function validateObservation(value: unknown): ObservationCheck {
  if (!isObject(value)) return { ok: false, problem: 'not a JSON object' };
  const v = value;
  const title = oneLine(pickString(v, 'title'), LIMITS.title);
  if (title === '') return { ok: false, problem: 'no title' };
  const narrative = text(pickString(v, 'narrative'), LIMITS.narrative);
  const facts = list(v.facts, LIMITS.facts);
  if (narrative === '' && facts.length === 0) return { ok: false, problem: 'neither narrative nor facts' };
  return {
    ok: true,
    observation: {
      type: observationType(v.type),
      title,
      subtitle: oneLine(pickString(v, 'subtitle'), LIMITS.subtitle),
      narrative,
      facts,
      concepts: list(v.concepts, LIMITS.concepts),
      files: list(v.files, LIMITS.files),
    },
  };
}

/** The model's text as an observation: plain JSON, or JSON inside a code fence or after `<think>`. */
export function parseObservationAnswer(answer: string): ObservationCheck {
  let problem = 'the answer holds no JSON object';
  for (const value of jsonCandidates(withoutThinking(answer))) {
    // An observation is an object: a list inside one (`"facts": [...]`) is not a candidate.
    if (!isObject(value)) continue;
    const checked = validateObservation(value);
    if (checked.ok) return checked;
    problem = checked.problem;
  }
  return { ok: false, problem };
}

function observationType(raw: unknown): ObservationType {
  const key = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return (OBSERVATION_TYPES as readonly string[]).includes(key) ? (key as ObservationType) : 'discovery';
}

function text(raw: string | null, max: number): string {
  if (raw === null) return '';
  const value = raw.trim();
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

function oneLine(raw: unknown, max: number): string {
  return text(typeof raw === 'string' ? raw.replace(/\s+/g, ' ') : null, max);
}

function list(raw: unknown, max: number): string[] {
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const item of raw) {
    const value = typeof item === 'number' || typeof item === 'boolean' ? String(item) : oneLine(item, LIMITS.item);
    if (value !== '' && !out.includes(value)) out.push(value);
    if (out.length === max) break;
  }
  return out;
}
