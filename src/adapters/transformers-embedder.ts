/**
 * Sentence embeddings with @xenova/transformers (ONNX, CPU), loaded lazily on the first embed call.
 *
 * A model id such as `Xenova/all-MiniLM-L6-v2` is read from `<modelsDir>/<id>/`, laid out as
 * `{config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx | onnx/model.onnx}`,
 * and downloaded there once when downloads are allowed. An absolute folder path is read from that
 * folder (same layout) and never downloaded.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { RecallError, describeError } from '../core/errors.js';
import type { Embedder } from '../core/ports.js';

export interface TransformersEmbedderOptions {
  /** A model id like `Xenova/all-MiniLM-L6-v2`, or an absolute path to a model folder. */
  model: string;
  /** RECALL_HOME/models: where model folders live and where downloads are cached. */
  modelsDir: string;
  allowDownload: boolean;
}

const BATCH_SIZE = 32;
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
const QUANTIZED_FILE = 'onnx/model_quantized.onnx';
const FULL_FILE = 'onnx/model.onnx';

/** The small part of @xenova/transformers this adapter uses. */
interface TransformersEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  localModelPath: string;
  cacheDir: string;
}
interface FeatureTensor {
  data: ArrayLike<number>;
  dims: readonly number[];
}
type FeatureExtractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<FeatureTensor>;
interface TransformersModule {
  env: TransformersEnv;
  AutoConfig: { from_pretrained(model: string): Promise<unknown> };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: { quantized: boolean; local_files_only: boolean },
  ): Promise<FeatureExtractor>;
}

/** Where the loader looks: `<root>/<id>/...`. */
interface ModelLocation {
  root: string;
  id: string;
  folder: string;
  /** An absolute folder was given: never download. */
  pinnedFolder: boolean;
}

export function createTransformersEmbedder(options: TransformersEmbedderOptions): Embedder {
  const location = locateModel(options.model, options.modelsDir);
  let extractor: Promise<FeatureExtractor> | null = null;

  const load = (): Promise<FeatureExtractor> => {
    extractor ??= loadExtractor(location, options.allowDownload).catch((err: unknown) => {
      extractor = null; // a later call may succeed (model copied in, network back)
      throw err;
    });
    return extractor;
  };

  return {
    id: `transformers:${options.model}`,
    async embed(texts) {
      if (texts.length === 0) return [];
      const extract = await load();
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += BATCH_SIZE) {
        const batch = texts.slice(start, start + BATCH_SIZE);
        let output: FeatureTensor;
        try {
          output = await extract(batch, { pooling: 'mean', normalize: true });
        } catch (err) {
          throw new RecallError('EMBEDDER_UNAVAILABLE', `Embedding with ${options.model} failed: ${describeError(err)}`, {
            cause: err,
          });
        }
        vectors.push(...splitRows(output, batch.length));
      }
      return vectors;
    },
  };
}

function locateModel(model: string, modelsDir: string): ModelLocation {
  if (isAbsolute(model)) {
    return { root: dirname(model), id: basename(model), folder: model, pinnedFolder: true };
  }
  const segments = model.split('/');
  if (model.trim() === '' || segments.some((part) => part === '' || part === '.' || part === '..')) {
    throw new RecallError('CONFIG_INVALID', `Invalid transformers model "${model}": use an id like Xenova/all-MiniLM-L6-v2 or an absolute folder path.`);
  }
  return { root: modelsDir, id: model, folder: join(modelsDir, ...segments), pinnedFolder: false };
}

function missingFiles(folder: string): string[] {
  const missing: string[] = REQUIRED_FILES.filter((file) => !existsSync(join(folder, file)));
  if (!existsSync(join(folder, QUANTIZED_FILE)) && !existsSync(join(folder, FULL_FILE))) {
    missing.push(`${QUANTIZED_FILE} (or ${FULL_FILE})`);
  }
  return missing;
}

interface LoadProblem {
  missing?: readonly string[];
  cause?: unknown;
  /** The failure happened while downloading. */
  downloading?: boolean;
}

function unavailable(location: ModelLocation, problem: LoadProblem): RecallError {
  const what = problem.missing?.length ? `missing ${problem.missing.join(', ')}` : describeError(problem.cause);
  const fixes = [`put the model files in ${location.folder}/{${REQUIRED_FILES.join(', ')}, ${QUANTIZED_FILE} or ${FULL_FILE}}`];
  if (problem.downloading) fixes.unshift('check the model id and that the model hub is reachable for this one download');
  else if (!location.pinnedFolder) {
    fixes.push('set embedder.allowDownload to true (env RECALL_ALLOW_MODEL_DOWNLOAD=true) to download it once');
  }
  fixes.push('use embedder.id "hash" for a lexical-only fallback');
  const status = problem.downloading ? 'could not be downloaded' : 'is not available';
  return new RecallError('EMBEDDER_UNAVAILABLE', `Embedding model ${location.id} ${status} (${what}). Fix: ${fixes.join('; or ')}.`, {
    cause: problem.cause,
  });
}

/** transformers.js keeps its settings in one global `env`: loads run one at a time so two models never mix them. */
let loadQueue: Promise<unknown> = Promise.resolve();

function loadExtractor(location: ModelLocation, allowDownload: boolean): Promise<FeatureExtractor> {
  const run = loadQueue.then(() => loadExtractorNow(location, allowDownload));
  loadQueue = run.catch(() => undefined);
  return run;
}

async function loadExtractorNow(location: ModelLocation, allowDownload: boolean): Promise<FeatureExtractor> {
  const missing = missingFiles(location.folder);
  const download = missing.length > 0;
  // Fail before importing the library (and without touching the network) when nothing can fix it.
  if (download && (location.pinnedFolder || !allowDownload)) throw unavailable(location, { missing });

  let transformers: TransformersModule;
  try {
    transformers = (await import('@xenova/transformers')) as unknown as TransformersModule;
  } catch (err) {
    throw new RecallError('EMBEDDER_UNAVAILABLE', `Could not load @xenova/transformers: ${describeError(err)}`, { cause: err });
  }
  const { env, pipeline, AutoConfig } = transformers;
  env.allowLocalModels = true;
  env.allowRemoteModels = download;
  env.localModelPath = location.root;
  // The download cache keys files as `<id>/<file>`: with cacheDir = localModelPath a download lands in the local layout.
  env.cacheDir = location.root;

  const open = (quantized: boolean): Promise<FeatureExtractor> =>
    pipeline('feature-extraction', location.id, { quantized, local_files_only: !download });

  if (!download) {
    // Prefer the quantized file (the loader's default) and use the full-precision one when it is the only one.
    const quantized = existsSync(join(location.folder, QUANTIZED_FILE));
    try {
      return await open(quantized);
    } catch (err) {
      throw unavailable(location, { cause: err });
    }
  }
  try {
    // Fetch config.json first (it lands in the model folder): an unreachable host or unknown model fails here, once.
    await AutoConfig.from_pretrained(location.id);
  } catch (err) {
    throw unavailable(location, { cause: err, downloading: true });
  }
  try {
    return await open(true);
  } catch (err) {
    // The repository answered but may have no quantized ONNX file: try the full-precision one.
    if (existsSync(join(location.folder, QUANTIZED_FILE))) throw unavailable(location, { cause: err, downloading: true });
    try {
      return await open(false);
    } catch (fullErr) {
      throw unavailable(location, { cause: fullErr, downloading: true });
    }
  }
}

/** One vector per text; a row that is zero or not finite (all-unknown tokens normalise to NaN) becomes the zero vector. */
function splitRows(output: FeatureTensor, count: number): Float32Array[] {
  const [rows, dim] = output.dims;
  if (output.dims.length !== 2 || rows !== count || dim === undefined || dim < 1) {
    throw new RecallError('EMBEDDER_UNAVAILABLE', `Unexpected embedding output shape [${output.dims.join(', ')}] for ${count} texts.`);
  }
  const data = output.data instanceof Float32Array ? output.data : Float32Array.from(output.data);
  const vectors: Float32Array[] = [];
  for (let row = 0; row < rows; row += 1) {
    const vector = data.slice(row * dim, (row + 1) * dim);
    vectors.push(vector.length === dim && vector.every(Number.isFinite) ? vector : new Float32Array(dim));
  }
  return vectors;
}
