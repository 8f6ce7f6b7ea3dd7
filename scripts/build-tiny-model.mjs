// Writes a tiny random-weight BERT-style sentence model that @xenova/transformers 2.17 loads offline.
//
// Layout (what `pipeline('feature-extraction', '<org>/<name>')` reads with env.localModelPath = root):
//   <root>/<org>/<name>/config.json            model_type "bert"
//   <root>/<org>/<name>/tokenizer.json         WordPiece, lowercasing BERT normaliser
//   <root>/<org>/<name>/tokenizer_config.json  pad_token, do_lower_case, ...
//   <root>/<org>/<name>/onnx/model_quantized.onnx   (quantized: true, the loader's default)
//   <root>/<org>/<name>/onnx/model.onnx             (quantized: false)
//
// The ONNX graph takes input_ids, attention_mask, token_type_ids (int64 [batch, seq]) and returns
// last_hidden_state (float32 [batch, seq, dim]) through one Gather from a seeded pseudo-random
// embedding matrix, so the same text always gives the same vector. The rows of the special tokens
// ([PAD] [UNK] [CLS] [SEP] [MASK]) are zero: a text made only of unknown tokens mean-pools to the
// zero vector, the case that normalises to NaN unless the caller guards it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { seededRandom } from './seeded-random.mjs';

const { onnx } = onnxProto;

export const SPECIAL_TOKENS = Object.freeze(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);

/** A few hundred common English and programming words; single characters and `##` pieces are added on top. */
export const DEFAULT_TINY_VOCAB = Object.freeze(
  `
the a an and or not no yes is are was were be been being have has had do does did will would can could
should must may might shall of to in on at by for with from into onto over under about after before
between through during without within this that these those it its they them their we our you your he
she his her i me my all any some each every many much more most less few other another same such only
also just very too again always never often sometimes usually here there when where why how what which
who whom whose than then so because if else while until unless although though however instead use
used using make made run runs running build builds test tests testing fix fixed bug bugs error errors
warning fail fails failed failure pass passes passed check checks add added remove removed delete
update updated change changed create created write read reads open close start stop install installed
set get put post call calls return returns import export file files folder path paths directory name
names type types value values key keys list lists map maps array arrays string strings number numbers
boolean object objects class classes function functions method methods module modules package packages
library code source line lines comment comments config configuration option options flag flags
command commands script scripts server client request response api http url port host database db
table tables query queries index row rows column column schema migration model models data user users
project projects repo repository branch branches commit commits merge push pull main master release
version versions dependency dependencies build lint format style rule rules convention conventions
prefer avoid always never instead must new old first last next previous before after log logs logging
debug info warn cache memory memories store search vector vectors embedding embeddings token tokens
time date timeout retry retries queue job jobs worker workers lock locks hook hooks session sessions
node npm npx pnpm yarn typescript javascript python rust go java shell bash git docker linux mac
windows json yaml toml markdown html css sql env environment variable variables secret secrets
password passwords auth login logout async await promise promises callback event events stream
streams buffer input output stdin stdout stderr exit code status process processes thread threads
parse parser parsing render rendering handle handler handlers route routes component components
state props view views page pages test spec mock mocks fixture fixtures unit integration vitest jest
eslint prettier tsc compile compiler strict null undefined true false default defaults import
tab tabs space spaces indent semicolon quote quotes single double trailing comma async sync
small large big fast slow simple clean safe unsafe good bad right wrong better best correct
prefer prefers preferred keep keeps kept want wants need needs needed like likes work works working
team person people day days week weeks today tomorrow yesterday morning night home office
dog dogs cat cats animal animals food eat eats ate coffee tea water weather rain sunny cold hot
car cars road city music song songs play plays game games book books movie movies friend friends
`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);

const CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PUNCTUATION = '.,;:!?\'"()[]{}<>/\\-_=+*&^%$#@~`|';


/** Special tokens first (ids 0..4), then the words, then single characters and their `##` pieces. */
function buildVocab(words) {
  const tokens = [...SPECIAL_TOKENS];
  const seen = new Set(tokens);
  const addToken = (token) => {
    if (!seen.has(token)) {
      seen.add(token);
      tokens.push(token);
    }
  };
  for (const word of words) addToken(word.toLowerCase());
  for (const ch of CHARACTERS) addToken(ch);
  for (const ch of CHARACTERS) addToken(`##${ch}`);
  for (const ch of PUNCTUATION) addToken(ch);
  return tokens;
}

function tokenizerJson(tokens) {
  const vocab = Object.fromEntries(tokens.map((token, id) => [token, id]));
  const special = (content) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const specialEntry = (content) => ({ id: content, ids: [vocab[content]], tokens: [content] });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': specialEntry('[CLS]'),
        '[SEP]': specialEntry('[SEP]'),
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

function tokenizerConfigJson() {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    do_basic_tokenize: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
    clean_up_tokenization_spaces: true,
    model_max_length: 512,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  };
}

function configJson(dim, vocabSize) {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: dim,
    vocab_size: vocabSize,
    num_hidden_layers: 0,
    num_attention_heads: 1,
    intermediate_size: dim,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
  };
}

function tensorInput(name, elemType, dims) {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function onnxModelBytes(dim, vocabSize, seed) {
  const random = seededRandom(seed);
  const weights = new Float32Array(vocabSize * dim);
  for (let row = SPECIAL_TOKENS.length; row < vocabSize; row += 1) {
    for (let col = 0; col < dim; col += 1) weights[row * dim + col] = random() * 2 - 1;
  }
  const { FLOAT, INT64 } = onnx.TensorProto.DataType;
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'recall-tiny-model',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny-bert',
      initializer: [
        {
          name: 'word_embeddings',
          dataType: FLOAT,
          dims: [vocabSize, dim],
          rawData: new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength),
        },
      ],
      node: [
        {
          name: 'embed',
          opType: 'Gather',
          input: ['word_embeddings', 'input_ids'],
          output: ['last_hidden_state'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
      ],
      input: [
        tensorInput('input_ids', INT64, ['batch', 'sequence']),
        tensorInput('attention_mask', INT64, ['batch', 'sequence']),
        tensorInput('token_type_ids', INT64, ['batch', 'sequence']),
      ],
      output: [tensorInput('last_hidden_state', FLOAT, ['batch', 'sequence', dim])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Builds the tiny model under `<root>/<org>/<name>` and returns its id (`<org>/<name>`) and folder.
 * Deterministic: the same options always give byte-identical files.
 */
export async function buildTinyModel(root, opts = {}) {
  const org = opts.org ?? 'recall-test';
  const name = opts.name ?? 'tiny-bert';
  const dim = opts.dim ?? 128;
  const quantized = opts.quantized ?? true;
  const seed = opts.seed ?? 42;
  if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`dim must be a positive integer, got ${dim}`);

  const tokens = buildVocab(opts.vocab ?? DEFAULT_TINY_VOCAB);
  const dir = join(root, org, name);
  const onnxFile = join(dir, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx');
  await mkdir(join(dir, 'onnx'), { recursive: true });
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  await Promise.all([
    writeFile(join(dir, 'config.json'), json(configJson(dim, tokens.length))),
    writeFile(join(dir, 'tokenizer.json'), json(tokenizerJson(tokens))),
    writeFile(join(dir, 'tokenizer_config.json'), json(tokenizerConfigJson())),
    writeFile(onnxFile, onnxModelBytes(dim, tokens.length, seed)),
  ]);
  return { modelId: `${org}/${name}`, dir, dim, vocabSize: tokens.length, onnxFile };
}
