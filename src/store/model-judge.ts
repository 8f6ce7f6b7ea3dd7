/**
 * The model's half of the supersede decision: one small structured call per pair the rules leave
 * open. The notes go in as data between tags; the answer is checked against a schema.
 */
import { z } from 'zod';
import { RecallError } from '../core/errors.js';
import type { Llm } from '../core/ports.js';
import type { PairJudge } from './decide-memories.js';

const verdictSchema = z.object({ verdict: z.enum(['same', 'supersede', 'different']), reason: z.string().max(500).optional() });
/** Small: two notes and a one-line answer. */
const JUDGE_NUM_CTX = 2048;

/** The JSON schema sent as the model's output format. */
const { $schema: _dialect, ...VERDICT_JSON_SCHEMA } = z.toJSONSchema(verdictSchema) as Record<string, unknown>;

/** A tag in a note cannot close the block it sits in. */
function asData(text: string): string {
  return text.replace(/</g, '‹');
}

export function createModelJudge(llm: Llm): PairJudge {
  return async (oldText, newText) => {
    // Loaded on a first open pair only: prompts are found relative to the module's own URL, which the MCP
    // server's one-file build cannot fold in.
    const { fillPrompt, loadPrompt } = await import('../extract/load-prompt.js');
    const [system, user] = await Promise.all([loadPrompt('judge-supersede.system'), loadPrompt('judge-supersede.user')]);
    const answer = await llm.chat({ system, prompt: fillPrompt(user, { old: asData(oldText), new: asData(newText) }), schema: VERDICT_JSON_SCHEMA, numCtx: JUDGE_NUM_CTX });
    return parseVerdict(answer);
  };
}

/** The verdict in a model's answer; LLM_BAD_OUTPUT when it is not the JSON asked for. */
export function parseVerdict(answer: string): 'same' | 'supersede' | 'different' {
  const body = answer.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    throw new RecallError('LLM_BAD_OUTPUT', 'the model did not answer the pair question with JSON', { cause: err });
  }
  const parsed = verdictSchema.safeParse(value);
  if (!parsed.success) throw new RecallError('LLM_BAD_OUTPUT', 'the model answered the pair question without a valid verdict');
  return parsed.data.verdict;
}
