export interface TinyModelOptions {
  /** First path segment of the model id; default `recall-test`. */
  org?: string;
  /** Second path segment of the model id; default `tiny-bert`. */
  name?: string;
  /** Embedding width; default 128. */
  dim?: number;
  /** Words of the WordPiece vocabulary; default DEFAULT_TINY_VOCAB. Special tokens and characters are added. */
  vocab?: readonly string[];
  /** true (default) writes onnx/model_quantized.onnx, the file the loader reads by default; false writes onnx/model.onnx. */
  quantized?: boolean;
  /** Seed of the embedding matrix; default 42. */
  seed?: number;
}

export interface TinyModel {
  /** `<org>/<name>`, the id to load with env.localModelPath = root. */
  modelId: string;
  /** Absolute folder `<root>/<org>/<name>`. */
  dir: string;
  dim: number;
  vocabSize: number;
  /** The ONNX file written. */
  onnxFile: string;
}

export const SPECIAL_TOKENS: readonly string[];
export const DEFAULT_TINY_VOCAB: readonly string[];
export function buildTinyModel(root: string, opts?: TinyModelOptions): Promise<TinyModel>;
