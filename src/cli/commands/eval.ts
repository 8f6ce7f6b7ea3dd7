import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RecallError, isRecallError } from '../../core/errors.js';
import type { Llm } from '../../core/ports.js';
import { comparisonRows, summarizeRuns } from '../../extract/compare-models.js';
import type { SessionRun, StoreEffect } from '../../extract/compare-models.js';
import { extractMemories } from '../../extract/extract-memories.js';
import { resolveProject } from '../../project/resolve-project.js';
import { redactSecrets } from '../../redact/redact-secrets.js';
import { decisionOptions } from '../../store/decision-options.js';
import { previewStore } from '../../store/preview-store.js';
import { readTranscript } from '../../transcript/read-transcript.js';
import type { Runtime } from '../../app/runtime.js';
import { withRuntime } from '../context.js';
import { out, renderTable } from '../output.js';

interface EvalFlags {
  model: string[];
  cwd?: string;
  json?: boolean;
}

export function registerEval(program: Command): void {
  program
    .command('eval <transcript...>')
    .description('run extraction over past sessions with each model and compare them side by side; stores nothing')
    .requiredOption('--model <name>', 'an Ollama model to try (repeat for several)', (value: string, all: string[] = []) => [...all, value])
    .option('--cwd <dir>', "project the sessions belong to, for the store comparison (default: each session's own cwd)")
    .option('--json', 'print the figures as JSON')
    .action(async (transcripts: string[], opts: EvalFlags) => {
      const models = [...new Set(opts.model)];
      await withRuntime(async (runtime) => {
        const runs: SessionRun[] = [];
        const skipped: Array<{ session: string; why: string }> = [];
        for (const [i, file] of transcripts.entries()) {
          const path = resolve(file);
          const transcript = await readTranscript(path, { maxChars: runtime.config.transcript.maxChars });
          const text = redactSecrets(transcript.text).text;
          if (text.trim().length < runtime.config.transcript.minChars) {
            skipped.push({ session: path, why: `transcript under ${runtime.config.transcript.minChars} characters` });
            continue;
          }
          const namespace = resolveProject(opts.cwd !== undefined ? resolve(opts.cwd) : transcript.cwd).namespace;
          for (const model of models) {
            if (!opts.json) out.raw('stderr', `[${i + 1}/${transcripts.length}] ${model}: ${path}\n`);
            runs.push(await runModel(runtime, model, path, { transcript: text, firstRequest: transcript.firstRequest }, namespace));
          }
        }
        const summaries = summarizeRuns(runs, models);
        if (opts.json) {
          out.json({ models: summaries, sessions: runs, skipped });
          return;
        }
        out.line(renderTable(['', ...models], comparisonRows(summaries)));
        for (const s of skipped) out.line(`skipped ${s.session}: ${s.why}`);
        if (runs.some((run) => run.effect === null)) out.line('(n/a: the store could not be compared; see `recall doctor`)');
      });
    });
}

/** An Llm that notes whether the model was asked a second time (its schema-constrained answer was unusable). */
function countingLlm(llm: Llm): Llm & { calls: number } {
  const counted = {
    model: llm.model,
    calls: 0,
    chat(request: Parameters<Llm['chat']>[0]) {
      counted.calls += 1;
      return llm.chat(request);
    },
  };
  return counted;
}

async function runModel(runtime: Runtime, model: string, session: string, input: { transcript: string; firstRequest: string | null }, namespace: string): Promise<SessionRun> {
  const llm = countingLlm(runtime.llmFor(model));
  const started = performance.now();
  let memories: SessionRun['memories'] = [];
  let dropped = 0;
  let failed = false;
  try {
    const extraction = await extractMemories(input, { llm, minNumCtx: runtime.config.ollama.numCtx, maxMemories: runtime.config.extract.maxMemories });
    memories = extraction.memories.map((m) => ({ ...m, content: redactSecrets(m.content).text }));
    dropped = extraction.dropped;
  } catch (err) {
    // A model that answers nothing usable is a figure of the comparison; a missing model or server is not.
    if (!isRecallError(err, 'LLM_BAD_OUTPUT')) throw err;
    failed = true;
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  return { model, session, memories, dropped, schemaRetry: llm.calls > 1, failed, seconds, effect: await effectOf(runtime, memories, namespace) };
}

async function effectOf(runtime: Runtime, memories: SessionRun['memories'], namespace: string): Promise<StoreEffect | null> {
  try {
    return await previewStore(memories, namespace, { embedder: await runtime.embedder(), store: await runtime.store(), decide: decisionOptions(runtime.config, runtime.llm, runtime.log) });
  } catch (err) {
    if (err instanceof RecallError) return null;
    throw err;
  }
}
