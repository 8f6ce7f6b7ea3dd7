/**
 * An Ollama-protocol server on 127.0.0.1 for tests and the demo. Node built-ins only.
 *
 * Faithful to the parts of the real HTTP API recall uses (docs/api.md of ollama/ollama):
 * - `POST /api/chat` and `POST /api/generate` stream NDJSON (`application/x-ndjson`) unless the
 *   body says `"stream": false`, in which case one JSON object comes back. The last object has
 *   `done: true`, `done_reason` and the timing/count fields.
 * - `POST /api/embed` `{model, input: string | string[]}` -> `{model, embeddings: number[][], ...}`;
 *   the legacy `POST /api/embeddings` `{model, prompt}` -> `{embedding}`.
 * - `GET /api/tags`, `GET /api/version`, `GET /api/ps` (the models that answered), `POST /api/show`
 *   (404 for an unknown model), `GET /`.
 * - Unknown model -> 404 `{"error":"model 'x' not found"}` (JSON content type); invalid JSON or a
 *   missing `model` -> 400 `{"error": ...}`; unknown path -> 404 `404 page not found` (text/plain,
 *   like the real server's router).
 *
 * Everything below is a plain mutable field, so a test can change behaviour between calls:
 * `double.delayMs = 500`, `double.configure({ failStatus: 500 })`. Every request is recorded in
 * `double.requests` (method, path, parsed body) before it is handled.
 *
 * Run directly for a manual or demo server:
 *   node scripts/ollama-double.mjs [--port 11434] [--model name]... [--delay-ms N]
 * It prints one JSON line `{"url": ..., "port": ...}` on stdout and runs until SIGINT/SIGTERM.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

export const DEFAULT_MODELS = Object.freeze(['llama3.2:3b', 'nomic-embed-text:latest']);
export const DEFAULT_EMBED_DIM = 32;

/**
 * @typedef {Record<string, any>} RequestBody
 * @typedef {{ method: string, path: string, body: unknown, headers: Record<string, string | string[] | undefined> }} RecordedRequest
 * @typedef {string | ((body: RequestBody) => string | object | Promise<string | object>)} Reply
 * @typedef {object} OllamaDoubleOptions
 * @property {string[]} [models] Installed model names; `x` matches `x:latest` as on the real server.
 * @property {Reply} [reply] Assistant content, or a function of the request body returning it.
 * @property {number} [delayMs] Wait before answering chat/generate/embed (real servers answer a non-streamed call only when done).
 * @property {number | null} [failStatus] Answer chat/generate/embed/show with this HTTP status and `{"error": failMessage}`.
 * @property {string} [failMessage]
 * @property {number} [failTimes] How many requests `failStatus` applies to before it clears itself (default: all).
 * @property {boolean} [garbage] Answer with non-JSON content (with `failStatus`: a text/plain error body).
 * @property {(text: string, model: string) => number[]} [embed] Text -> vector; default `hashEmbed`.
 * @property {boolean | number} [rejectFormat] Refuse a JSON-schema `format` (true: HTTP 400, or the given status).
 * @property {string} [version] Reported by `/api/version`.
 * @property {Record<string, number>} [failModels] Answer chat/generate for these models with the given HTTP status and `{"error": failMessage}`.
 */

/**
 * Deterministic hashed bag-of-words vector, L2-normalised. Text without any word gives the zero
 * vector (real models never do; it lets tests exercise the zero-vector guard).
 * @param {string} text
 * @param {number} [dim]
 * @returns {number[]}
 */
export function hashEmbed(text, dim = DEFAULT_EMBED_DIM) {
  const vector = new Array(dim).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const hash = fnv1a(word);
    vector[hash % dim] += hash & 0x80000000 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

/** @param {string} text */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The default reply: a stand-in "extraction model". It turns sentences of the last user message
 * (inside its `<transcript>` block when there is one; speaker prefixes like `User:` removed) that
 * state a rule (must, never, always, prefer, ...) into memories, and answers
 * `{"memories":[...]}` JSON, which is what recall asks for. Deterministic.
 * @param {RequestBody} body
 * @returns {string}
 */
export function defaultReply(body) {
  const userText = lastUserText(body);
  const text = /<transcript>([\s\S]*?)<\/transcript>/.exec(userText)?.[1] ?? userText;
  const memories = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const content = sentence.replace(/^\s*(?:\[\w+\]|\w+:)\s*/, '').trim();
    if (content.length < 10 || content.length > 300) continue;
    if (/\b(MUST|NEVER|ALWAYS)\b/.test(content)) memories.push({ content, type: 'golden_rule' });
    else if (/\b(prefer|always|never|must|should)\b/i.test(content)) memories.push({ content, type: 'preference' });
    if (memories.length === 12) break;
  }
  return JSON.stringify({ memories });
}

/** @param {RequestBody} body */
function lastUserText(body) {
  if (typeof body.prompt === 'string') return body.prompt;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const user = messages.filter((m) => m && m.role === 'user').pop();
  return user && typeof user.content === 'string' ? user.content : '';
}

/** @param {string} name */
function normalizeModelName(name) {
  const last = name.slice(name.lastIndexOf('/') + 1);
  return last.includes(':') ? name : `${name}:latest`;
}

export class OllamaDouble {
  /** @param {OllamaDoubleOptions} [options] */
  constructor(options = {}) {
    this.initialOptions = { ...options };
    /** @type {RecordedRequest[]} */ this.requests = [];
    /** @type {import('node:http').Server | null} */ this.server = null;
    /** @type {Set<ReturnType<typeof setTimeout>>} */ this.timers = new Set();
    this.reset();
  }

  /** Back to the defaults plus the constructor's options, with no recorded requests. */
  reset() {
    /** @type {string[]} */ this.models = [...DEFAULT_MODELS];
    /** @type {Reply} */ this.reply = defaultReply;
    this.delayMs = 0;
    /** @type {number | null} */ this.failStatus = null;
    this.failMessage = 'internal server error';
    this.failTimes = Infinity;
    this.garbage = false;
    /** @type {(text: string, model: string) => number[]} */ this.embed = (text) => hashEmbed(text);
    /** @type {boolean | number} */ this.rejectFormat = false;
    this.version = '0.6.8';
    /** @type {Record<string, number>} */ this.failModels = {};
    /** Models that answered, as `/api/ps` lists them loaded. @type {Set<string>} */ this.loaded = new Set();
    this.requests.length = 0;
    return this.configure(this.initialOptions);
  }

  /** Change behaviour at runtime; only the given keys change. @param {OllamaDoubleOptions} options */
  configure(options) {
    for (const [key, value] of Object.entries(options)) {
      if (value !== undefined) /** @type {any} */ (this)[key] = value;
    }
    return this;
  }

  /** @param {string} model */
  hasModel(model) {
    const wanted = normalizeModelName(model);
    return this.models.some((name) => normalizeModelName(name) === wanted);
  }

  /** Requests to one path, e.g. `/api/chat`. @param {string} path */
  requestsTo(path) {
    return this.requests.filter((r) => r.path === path);
  }

  /**
   * Listen on 127.0.0.1 (port 0: a free port).
   * @param {number} [port]
   * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
   */
  async start(port = 0) {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        if (!res.headersSent) sendJson(res, 500, { error: `double failed: ${String(err)}` });
        else res.destroy();
      });
    });
    this.server = server;
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(undefined));
    });
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    return {
      url: `http://127.0.0.1:${actualPort}`,
      port: actualPort,
      close: () => this.close(),
    };
  }

  /** Stop listening, cut open connections and drop pending delayed answers. */
  async close() {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await new Promise((resolve) => {
      server.close(() => resolve(undefined));
      server.closeAllConnections();
    });
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async handle(req, res) {
    const path = new URL(req.url ?? '/', 'http://double').pathname;
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    /** @type {RecordedRequest} */
    const record = { method, path, body: raw, headers: { ...req.headers } };
    this.requests.push(record);

    if (method === 'GET' || method === 'HEAD') {
      if (path === '/') return sendText(res, 200, 'Ollama is running');
      if (path === '/api/tags') return sendJson(res, 200, { models: this.models.map(describeModel) });
      if (path === '/api/version') return sendJson(res, 200, { version: this.version });
      if (path === '/api/ps') return sendJson(res, 200, { models: [...this.loaded].map(runningModel) });
      return sendText(res, 404, '404 page not found');
    }
    const routes = ['/api/chat', '/api/generate', '/api/embed', '/api/embeddings', '/api/show'];
    if (method !== 'POST' || !routes.includes(path)) return sendText(res, 404, '404 page not found');

    if (raw.length === 0) return sendJson(res, 400, { error: 'missing request body' });
    /** @type {RequestBody} */
    let body;
    try {
      body = JSON.parse(raw);
    } catch (err) {
      return sendJson(res, 400, { error: `invalid JSON body: ${/** @type {Error} */ (err).message}` });
    }
    record.body = body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return sendJson(res, 400, { error: 'request body must be a JSON object' });
    }
    const model = typeof body.model === 'string' ? body.model : typeof body.name === 'string' ? body.name : '';
    if (!model) return sendJson(res, 400, { error: 'model is required' });

    if (path !== '/api/show' && this.delayMs > 0) {
      const alive = await this.sleep(this.delayMs, req);
      if (!alive) return;
    }
    if (this.failStatus !== null && this.failTimes > 0) {
      const status = this.failStatus;
      this.failTimes -= 1;
      if (this.failTimes <= 0) {
        this.failStatus = null;
        this.failTimes = Infinity;
      }
      if (this.garbage) return sendText(res, status, `<html><body>${status} upstream trouble</body></html>`, 'text/html');
      return sendJson(res, status, { error: this.failMessage });
    }
    if (!this.hasModel(model)) return sendJson(res, 404, { error: `model '${model}' not found` });
    const modelStatus = this.failModels[model];
    if (modelStatus !== undefined && (path === '/api/chat' || path === '/api/generate')) return sendJson(res, modelStatus, { error: this.failMessage });
    if (path !== '/api/show') this.loaded.add(normalizeModelName(model));

    if (path === '/api/show') return sendJson(res, 200, showModel(model));
    if (path === '/api/embed' || path === '/api/embeddings') return this.handleEmbed(res, path, body, model);

    const format = body.format;
    if (this.rejectFormat !== false && format !== null && typeof format === 'object') {
      const status = typeof this.rejectFormat === 'number' ? this.rejectFormat : 400;
      return sendJson(res, status, { error: 'invalid format: expected "json" or a valid JSON schema' });
    }
    if (this.garbage) return sendText(res, 200, '<html>this is not JSON{', 'application/json; charset=utf-8');

    const produced = typeof this.reply === 'function' ? await this.reply(body) : this.reply;
    const content = typeof produced === 'string' ? produced : JSON.stringify(produced);
    const field = path === '/api/chat' ? 'message' : 'response';
    /** @param {string} text */
    const piece = (text) => (field === 'message' ? { message: { role: 'assistant', content: text } } : { response: text });
    const stats = {
      total_duration: 1_200_000_000 + content.length * 1000,
      load_duration: 30_000_000,
      prompt_eval_count: Math.ceil(raw.length / 4),
      prompt_eval_duration: 400_000_000,
      eval_count: Math.max(1, Math.ceil(content.length / 4)),
      eval_duration: 700_000_000,
    };
    if (body.stream === false) {
      return sendJson(res, 200, { model, created_at: now(), ...piece(content), done: true, done_reason: 'stop', ...stats });
    }
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    for (const chunk of chunkText(content)) {
      res.write(`${JSON.stringify({ model, created_at: now(), ...piece(chunk), done: false })}\n`);
    }
    res.end(`${JSON.stringify({ model, created_at: now(), ...piece(''), done: true, done_reason: 'stop', ...stats })}\n`);
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {string} path
   * @param {RequestBody} body
   * @param {string} model
   */
  handleEmbed(res, path, body, model) {
    if (this.garbage) return sendText(res, 200, 'embeddings: [not json', 'application/json; charset=utf-8');
    if (path === '/api/embeddings') {
      const prompt = typeof body.prompt === 'string' ? body.prompt : '';
      return sendJson(res, 200, { embedding: this.embed(prompt, model) });
    }
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      return sendJson(res, 400, { error: 'invalid input type' });
    }
    return sendJson(res, 200, {
      model,
      embeddings: texts.map((t) => this.embed(t, model)),
      total_duration: 14_000_000,
      load_duration: 1_000_000,
      prompt_eval_count: texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0),
    });
  }

  /**
   * Wait, unless the client goes away or the server closes. Resolves true when still worth answering.
   * @param {number} ms
   * @param {import('node:http').IncomingMessage} req
   * @returns {Promise<boolean>}
   */
  sleep(ms, req) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve(!req.socket.destroyed);
      }, ms);
      this.timers.add(timer);
    });
  }
}

/** @param {OllamaDoubleOptions} [options] */
export function createOllamaDouble(options) {
  return new OllamaDouble(options);
}

/** @param {import('node:http').IncomingMessage} req @returns {Promise<string>} */
async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
function sendJson(res, status, value) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {string} text @param {string} [type] */
function sendText(res, status, text, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'Content-Type': type });
  res.end(text);
}

function now() {
  return new Date().toISOString();
}

/** Split into a few word-aligned pieces, the way tokens arrive. @param {string} text */
function chunkText(text) {
  const pieces = text.match(/\S*\s*/g)?.filter((p) => p.length > 0) ?? [];
  const size = Math.max(1, Math.ceil(pieces.length / 4));
  const chunks = [];
  for (let i = 0; i < pieces.length; i += size) chunks.push(pieces.slice(i, i + size).join(''));
  return chunks;
}

/** @param {string} name */
function describeModel(name) {
  const full = normalizeModelName(name);
  const embedding = /embed|minilm/i.test(name);
  return {
    name: full,
    model: full,
    modified_at: '2025-01-01T00:00:00.000000000Z',
    size: embedding ? 274_302_450 : 2_019_393_189,
    digest: createHash('sha256').update(full).digest('hex'),
    details: {
      parent_model: '',
      format: 'gguf',
      family: embedding ? 'nomic-bert' : 'llama',
      families: [embedding ? 'nomic-bert' : 'llama'],
      parameter_size: embedding ? '137M' : '3.2B',
      quantization_level: embedding ? 'F16' : 'Q4_K_M',
    },
  };
}

/** A loaded model as `/api/ps` lists it: its file plus room for the context, all on the CPU. @param {string} name */
function runningModel(name) {
  const { size, ...rest } = describeModel(name);
  return { ...rest, size: Math.round(size * 1.1), size_vram: 0, expires_at: '2099-01-01T00:00:00Z' };
}

/** @param {string} name */
function showModel(name) {
  const { details, modified_at } = describeModel(name);
  const embedding = /embed|minilm/i.test(name);
  return {
    modelfile: `# Modelfile generated by "ollama show"\nFROM ${normalizeModelName(name)}\n`,
    parameters: 'num_ctx                        4096',
    template: '{{ .Prompt }}',
    details,
    model_info: { 'general.architecture': details.family, 'general.parameter_count': embedding ? 136_727_040 : 3_212_749_888 },
    capabilities: embedding ? ['embedding'] : ['completion'],
    modified_at,
  };
}

/** @param {string[]} argv */
async function main(argv) {
  /** @type {OllamaDoubleOptions} */
  const options = {};
  let port = 0;
  const models = [];
  for (let i = 0; i < argv.length; i += 2) {
    const [arg, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`missing value for ${arg}`);
    if (arg === '--port') port = Number(value);
    else if (arg === '--model') models.push(value);
    else if (arg === '--delay-ms') options.delayMs = Number(value);
    else throw new Error(`unknown argument: ${arg}`);
  }
  if (models.length > 0) options.models = models;
  const double = createOllamaDouble(options);
  const started = await double.start(port);
  console.log(JSON.stringify({ url: started.url, port: started.port }));
  const stop = () => void started.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(String(err));
    process.exit(1);
  });
}
