/** The decision options from the parsed config: thresholds, and the extraction model as judge when one is configured. */
import type { Config } from '../config/schema.js';
import type { Logger } from '../core/log.js';
import type { Llm } from '../core/ports.js';
import type { DecideOptions } from './decide-memories.js';
import { createModelJudge } from './model-judge.js';

export function decisionOptions(config: Config, llm: () => Llm, log?: Logger): DecideOptions {
  return {
    threshold: config.dedupe.threshold,
    band: config.dedupe.supersedeBand,
    judge: config.ollama.llmModel ? createModelJudge(llm()) : null,
    ...(log === undefined ? {} : { log }),
  };
}
