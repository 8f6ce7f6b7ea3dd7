import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { comparisonRows, summarizeRuns } from '../../extract/compare-models.js';
import type { SessionRun } from '../../extract/compare-models.js';
import { measureOverlap } from '../../extract/model-overlap.js';
import { alignMemories } from '../../extract/align-memories.js';
import { describeModel, describeSideBySide } from './eval-report.js';
import { resolveProject } from '../../project/resolve-project.js';
import { redactSecrets } from '../../redact/redact-secrets.js';
import { readTranscript } from '../../transcript/read-transcript.js';
import { checkTranscriptFile } from '../../transcript/check-transcript-file.js';
import { sessionFilesHelp } from '../session-files-help.js';
import type { Runtime } from '../../app/runtime.js';
import { withRuntime } from '../context.js';
import { out, renderTable } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';
import { runModel, skippedRun, type SessionInput } from './eval-run.js';

interface EvalFlags {
  model: string[];
  cwd?: string;
  json?: boolean;
}

const HELP = `
Per model: the memories it would store, marked + new, = already stored, ~ replaces a stored one (with
the stored text it would hide), how many of its memories the other models also found (same session,
same meaning by the dedupe threshold), seconds per session, tokens per second (Ollama's eval_count over
eval_duration) and peak memory (Ollama's /api/ps); then, per session, the models' memories side by side,
lined up by meaning. A model that is missing, errs, times out or answers no usable JSON is reported and
the others still run; a file that is not a session is skipped. Exit 1 only when no model could run or no
session could be read. Piped, the table is tab-separated. --json prints all of it.`;

export function registerEval(program: Command): void {
  program
    .command('eval <transcript...>')
    .description('run extraction over past sessions with each model and compare them side by side; stores nothing')
    .requiredOption('--model <name>', 'an Ollama model to try (repeat for several)', (value: string, all: string[] = []) => [...all, value])
    .option('--cwd <dir>', "project the sessions belong to, for the store comparison (default: each session's own cwd)")
    .option('--json', 'print the figures as JSON')
    .addHelpText('after', `${HELP}\n${sessionFilesHelp()}`)
    .action(async (transcripts: string[], opts: EvalFlags) => {
      const models = [...new Set(opts.model)];
      // A mistyped --cwd would compare every model against the global memories instead: refuse it first.
      if (opts.cwd !== undefined && !existsSync(resolve(opts.cwd))) throw new RecallError('INPUT_INVALID', `--cwd ${resolve(opts.cwd)} does not exist`);
      await withRuntime(async (runtime) => {
        const runs: SessionRun[] = [];
        const skipped: Array<{ session: string; why: string }> = [];
        const peakMemoryBytes = new Map<string, number>();
        const { loadedModelMemory } = await import('../../adapters/ollama-llm.js');
        for (const [i, file] of transcripts.entries()) {
          const input = await readSession(runtime, file, opts.cwd);
          if (typeof input === 'string') {
            skipped.push({ session: resolve(file), why: input });
            out.raw('stderr', `recall eval: skipped ${terminalSafe(resolve(file))}: ${terminalSafe(input)}\n`);
            continue;
          }
          for (const model of models) {
            const missing = runs.find((run) => run.model === model && run.error?.code === 'LLM_MODEL_MISSING')?.error;
            if (missing) {
              runs.push(skippedRun(model, input.path, missing));
              continue;
            }
            if (!opts.json) out.raw('stderr', `[${i + 1}/${transcripts.length}] ${terminalSafe(model)}: ${terminalSafe(input.path)}\n`);
            const run = await runModel(runtime, model, input);
            runs.push(run);
            if (run.error !== null) out.raw('stderr', `recall eval: ${terminalSafe(`${model} failed on ${input.path}: ${run.error.message}`)}\n`);
            else if (run.failed) out.raw('stderr', `recall eval: ${terminalSafe(`${model} gave no usable answer on ${input.path}`)} (not the JSON asked for, with or without the schema)\n`);
            const memory = run.error === null ? await loadedModelMemory(runtime.config.ollama.host, model, runtime.config.ollama.timeoutMs) : null;
            if (memory !== null) peakMemoryBytes.set(model, Math.max(peakMemoryBytes.get(model) ?? 0, memory.bytes));
          }
        }
        if (runs.length === 0) throw new RecallError('INPUT_INVALID', `no session to compare on: ${skipped.map((s) => `${s.session}: ${s.why}`).join('; ')}`);
        const ran = runs.filter((run) => run.error === null);
        if (ran.length === 0) {
          const first = runs[0]!.error!;
          const each = models.map((model) => `${model}: ${runs.find((run) => run.model === model)?.error?.message ?? 'not run'}`);
          throw new RecallError(first.code === 'LLM_MODEL_MISSING' ? 'LLM_MODEL_MISSING' : 'LLM_UNAVAILABLE', `no model could run: ${each.join('; ')}`);
        }
        const vectors = await vectorsOf(runtime, ran);
        const overlap = measureOverlap(ran, (content) => vectors.get(content) ?? new Float32Array(0), runtime.config.dedupe.threshold);
        const summaries = summarizeRuns(runs, models, { peakMemoryBytes, overlap });
        const sideBySide = alignMemories(ran, (content) => vectors.get(content) ?? new Float32Array(0), runtime.config.dedupe.threshold);
        if (opts.json) {
          out.json({ models: summaries, sessions: runs, sideBySide, skipped });
          return;
        }
        out.line(renderTable(['', ...models], comparisonRows(summaries)));
        for (const summary of summaries) out.line(describeModel(summary, runs));
        if (models.length > 1) for (const session of sideBySide) out.line(describeSideBySide(session));
        for (const s of skipped) out.line(terminalSafe(`skipped ${s.session}: ${s.why}`));
        if (ran.some((run) => run.effect === null)) out.line('(n/a: the store could not be compared; see `recall doctor`)');
      });
    });
}

/** A session ready to compare on, or why it is left out (not a transcript, unreadable, too short). */
async function readSession(runtime: Runtime, file: string, cwd: string | undefined): Promise<SessionInput | string> {
  const path = resolve(file);
  try {
    await checkTranscriptFile(path);
  } catch (err) {
    if (err instanceof RecallError) return err.message.startsWith(path) ? err.message.slice(path.length).replace(/^:?\s*/, '') : err.message;
    throw err;
  }
  const transcript = await readTranscript(path, { maxChars: runtime.config.transcript.maxChars });
  const text = redactSecrets(transcript.text).text;
  if (text.trim().length < runtime.config.transcript.minChars) return `transcript under ${runtime.config.transcript.minChars} characters`;
  const namespace = resolveProject(cwd !== undefined ? resolve(cwd) : transcript.cwd).namespace;
  return { path, transcript: text, firstRequest: transcript.firstRequest, namespace };
}

/** Every memory's vector, embedded once, for the overlap between models. */
async function vectorsOf(runtime: Runtime, runs: readonly SessionRun[]): Promise<Map<string, Float32Array>> {
  const texts = [...new Set(runs.flatMap((run) => run.memories.map((m) => m.content)))];
  if (texts.length === 0) return new Map();
  const embedded = await (await runtime.embedder()).embed(texts);
  return new Map(texts.map((text, i) => [text, embedded[i] as Float32Array]));
}
