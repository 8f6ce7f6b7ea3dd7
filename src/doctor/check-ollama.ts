/** Ollama reachable at the configured host, and the extraction model pulled. Pure. */
import type { CheckResult } from './check-result.js';

export type OllamaProbe =
  | { reachable: true; version: string | null; models: readonly string[] }
  | { reachable: false; failure: 'unreachable' | 'timeout' | 'not-ollama' | 'server-error'; detail: string };

export const OLLAMA_PROBE_TIMEOUT_MS = 2_000;

export function checkOllama(host: string, probe: OllamaProbe): CheckResult {
  const base = { id: 'ollama', title: 'Ollama' } as const;
  if (probe.reachable) {
    return { ...base, status: 'ok', detail: `${probe.version ? `version ${probe.version} ` : ''}at ${host}, ${probe.models.length} model(s)` };
  }
  const setHost = 'recall config set ollama.host <url>';
  switch (probe.failure) {
    case 'unreachable':
      return {
        ...base,
        status: 'fail',
        detail: `cannot reach Ollama at ${host}${probe.detail ? ` (${probe.detail})` : ''}`,
        fix: `start it with \`ollama serve\` (install from https://ollama.com), or if it runs elsewhere: ${setHost}`,
      };
    case 'timeout':
      return { ...base, status: 'fail', detail: `Ollama at ${host} did not answer within ${OLLAMA_PROBE_TIMEOUT_MS / 1000} s`, fix: 'restart it with `ollama serve`' };
    case 'not-ollama':
      return { ...base, status: 'fail', detail: `${host} answered, but not as Ollama does (${probe.detail})`, fix: `point recall at Ollama: ${setHost}` };
    case 'server-error':
      return { ...base, status: 'fail', detail: `Ollama at ${host} failed: ${probe.detail}`, fix: 'check the Ollama server log and restart it with `ollama serve`' };
  }
}

export function checkLlmModel(model: string | undefined, probe: OllamaProbe): CheckResult {
  const base = { id: 'llm-model', title: 'Extraction model' } as const;
  if (!model) {
    const suggestion = (probe.reachable ? probe.models.find((m) => !/embed/i.test(m)) : undefined) ?? 'llama3.2';
    return {
      ...base,
      status: 'fail',
      detail: 'no extraction model configured; captures wait in the queue until one is set',
      fix: `export RECALL_OLLAMA_LLM_MODEL=${suggestion} (or recall config set ollama.llmModel ${suggestion})`,
    };
  }
  if (!probe.reachable) return { ...base, status: 'warn', detail: `${model}: not checked, Ollama is not reachable` };
  if (!probe.models.some((name) => sameModel(name, model))) {
    return { ...base, status: 'fail', detail: `${model} is not pulled`, fix: `ollama pull ${model}` };
  }
  return { ...base, status: 'ok', detail: `${model} is pulled` };
}

/** A name without a tag means `:latest`, as in the ollama CLI. */
function sameModel(a: string, b: string): boolean {
  return withTag(a) === withTag(b);
}

function withTag(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1).includes(':') ? name : `${name}:latest`;
}
