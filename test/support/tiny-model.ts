/** A tiny random-weight BERT-style model in the offline transformers layout; see scripts/build-tiny-model.mjs. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTinyModel } from '../../scripts/build-tiny-model.mjs';
import type { TinyModel, TinyModelOptions } from '../../scripts/build-tiny-model.mjs';

export { buildTinyModel, DEFAULT_TINY_VOCAB, SPECIAL_TOKENS } from '../../scripts/build-tiny-model.mjs';
export type { TinyModel, TinyModelOptions } from '../../scripts/build-tiny-model.mjs';

/** Builds the tiny model under a fresh temp folder that serves as the models root. */
export async function buildTinyModelInTempDir(opts?: TinyModelOptions): Promise<TinyModel & { root: string }> {
  const root = await mkdtemp(join(tmpdir(), 'recall-models-'));
  return { ...(await buildTinyModel(root, opts)), root };
}
