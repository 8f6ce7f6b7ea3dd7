/**
 * `recall mcp`'s start: an agent spawns the server as a session starts and asks for `initialize` and
 * `tools/list` before the first prompt. This front answers those two from a file the build writes
 * (dist/mcp/static-answers.json: the SDK server's own answers, see scripts/write-mcp-answers.mjs),
 * with node built-ins only: no MCP SDK, zod, LanceDB, transformers or ollama. Once the list is answered
 * (or a quarter second after `initialize`, or at once for any other message), it hands the stream to
 * the full server (serve-mcp-command.ts), loaded then in the background: the `initialize` it answered
 * is replayed to that server under an id of its own, whose answer is not sent, and every byte that
 * came after is passed on untouched. A front without the answers file starts the full server at once.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** The answers the build captured from the SDK server. */
export interface StaticAnswers {
  /** The protocol versions the SDK accepts, and the one it offers for any other. */
  supportedVersions: string[];
  latestVersion: string;
  /** The `initialize` result without its protocolVersion, which depends on what the client asked. */
  initialize: Record<string, unknown>;
  /** The `tools/list` result. */
  list: Record<string, unknown>;
}

/** The id under which the answered `initialize` is replayed to the full server; its answer is dropped. */
export const REPLAYED_INITIALIZE_ID = 'recall-replayed-initialize';
/** With `initialize` answered and no list asked for, the full server is loaded after this long anyway. */
const WARM_AFTER_INITIALIZE_MS = 250;
/** The front answers only small messages: a longer unfinished line goes to the full server, whose transport bounds it. */
export const FRONT_MAX_LINE_BYTES = 64 * 1024;

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

export const STATIC_ANSWERS_FILE = fileURLToPath(new URL('./static-answers.json', import.meta.url));

export function readStaticAnswers(file: string = STATIC_ANSWERS_FILE): StaticAnswers | null {
  try {
    const answers = JSON.parse(readFileSync(file, 'utf8')) as StaticAnswers;
    return Array.isArray(answers.supportedVersions) && typeof answers.latestVersion === 'string' && answers.initialize !== undefined && answers.list !== undefined ? answers : null;
  } catch {
    return null;
  }
}

/** The `initialize` result for what the client asked: its protocol version when the SDK accepts it, else the latest. */
export function initializeResult(answers: StaticAnswers, params: unknown): Record<string, unknown> {
  const asked = typeof params === 'object' && params !== null ? (params as { protocolVersion?: unknown }).protocolVersion : undefined;
  const protocolVersion = typeof asked === 'string' && answers.supportedVersions.includes(asked) ? asked : answers.latestVersion;
  return { protocolVersion, ...answers.initialize };
}

/** The fields the SDK requires of `initialize`; anything else goes to the full server, which answers the error. */
function isInitializeParams(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  const { protocolVersion, capabilities, clientInfo } = params as Record<string, unknown>;
  const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof protocolVersion === 'string' && isObject(capabilities) && isObject(clientInfo) && typeof (clientInfo as { name?: unknown }).name === 'string' && typeof (clientInfo as { version?: unknown }).version === 'string';
}

/** Starts the full server on `stdin`, dropping the answer to the replayed `initialize`. */
export type StartFull = (stdin: NodeJS.ReadableStream, hiddenAnswerIds: ReadonlySet<string>) => Promise<void>;

/**
 * Serves `initialize` and `tools/list` from `answers` until the hand-over, then starts the full server
 * with what it needs replayed; resolves when that server is done.
 */
export function serveFront(answers: StaticAnswers, startFull: StartFull, stdin: NodeJS.ReadStream = process.stdin, write: (line: string) => void = (line) => process.stdout.write(line)): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    let initialize: Message | null = null;
    let initialized: Message | null = null;
    let warmTimer: NodeJS.Timeout | undefined;
    let handedOver = false;

    const handOver = (rest: Buffer): void => {
      if (handedOver) return;
      handedOver = true;
      clearTimeout(warmTimer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      const pass = new PassThrough();
      if (initialize !== null) pass.write(`${JSON.stringify({ ...initialize, id: REPLAYED_INITIALIZE_ID })}\n`);
      if (initialized !== null) pass.write(`${JSON.stringify(initialized)}\n`);
      if (rest.length > 0) pass.write(rest);
      if (stdin.readableEnded) pass.end();
      else stdin.pipe(pass);
      startFull(pass, new Set(initialize === null ? [] : [REPLAYED_INITIALIZE_ID])).then(resolve, reject);
    };
    /** Loads the full server once this turn's answers are out. */
    const warmSoon = (): void => {
      clearTimeout(warmTimer);
      warmTimer = setTimeout(() => handOver(pending), 0);
    };

    /** Answers one line when the front can; false hands it (and all after it) to the full server. */
    const answer = (line: string): boolean => {
      const text = line.replace(/\r$/, '');
      if (text.trim() === '') return true;
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        return false;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message) || message.jsonrpc !== '2.0') return false;
      const hasId = typeof message.id === 'string' || typeof message.id === 'number';
      if (message.method === 'initialize' && hasId && initialize === null && isInitializeParams(message.params)) {
        initialize = message;
        write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: initializeResult(answers, message.params) })}\n`);
        warmTimer = setTimeout(() => handOver(pending), WARM_AFTER_INITIALIZE_MS);
        return true;
      }
      if (message.method === 'notifications/initialized' && !hasId && initialize !== null) {
        initialized = message;
        return true;
      }
      const params = message.params as { cursor?: unknown } | undefined;
      if (message.method === 'tools/list' && hasId && initialize !== null && (params === undefined || params.cursor === undefined)) {
        write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answers.list })}\n`);
        warmSoon();
        return true;
      }
      return false;
    };

    function onData(chunk: Buffer | string): void {
      pending = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
      for (;;) {
        const end = pending.indexOf(0x0a);
        if (end === -1) {
          if (pending.length > FRONT_MAX_LINE_BYTES) handOver(pending);
          return;
        }
        const line = pending.subarray(0, end).toString('utf8');
        if (!answer(line)) {
          handOver(pending);
          return;
        }
        pending = pending.subarray(end + 1);
        if (handedOver) return;
      }
    }
    function onEnd(): void {
      handOver(pending);
    }
    stdin.on('data', onData);
    stdin.on('end', onEnd);
  });
}

/** `recall mcp`: the front when the build wrote its answers, else the full server at once. */
export async function runMcpEntry(): Promise<void> {
  const startFull = async (stdin?: NodeJS.ReadableStream, hiddenAnswerIds?: ReadonlySet<string>): Promise<void> => {
    const { serveMcpCommand } = await import('./serve-mcp-command.js');
    await serveMcpCommand({ stdin, hiddenAnswerIds });
  };
  const answers = readStaticAnswers();
  if (answers === null) await startFull();
  else await serveFront(answers, startFull);
}
