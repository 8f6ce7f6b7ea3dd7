/** Types for scripts/ollama-double.mjs, so TypeScript tests can import the double. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

// The request body is whatever JSON the client sent; tests read fields off it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RequestBody = Record<string, any>;

export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body, or the raw text when it was not JSON (or empty). */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export type Reply = string | ((body: RequestBody) => string | object | Promise<string | object>);

export interface OllamaDoubleOptions {
  /** Installed model names; `x` matches `x:latest` as on the real server. */
  models?: string[];
  /** Assistant content, or a function of the request body returning it (objects are JSON-encoded). */
  reply?: Reply;
  /** Wait before answering chat/generate/embed. */
  delayMs?: number;
  /** Answer chat/generate/embed/show with this status and `{"error": failMessage}`; null for normal answers. */
  failStatus?: number | null;
  failMessage?: string;
  /** How many requests `failStatus` applies to before it clears itself (default: all). */
  failTimes?: number;
  /** Answer with non-JSON content (with `failStatus`: a non-JSON error body). */
  garbage?: boolean;
  /** Text -> vector; default `hashEmbed` (dimension 32, L2-normalised, zero for text without words). */
  embed?: (text: string, model: string) => number[];
  /** Refuse a JSON-schema `format`: true answers HTTP 400, a number answers that status. */
  rejectFormat?: boolean | number;
  /** Reported by `/api/version`. */
  version?: string;
  /** Answer chat/generate for these models with the given HTTP status and `{"error": failMessage}`. */
  failModels?: Record<string, number>;
}

export interface StartedDouble {
  url: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_MODELS: readonly string[];
export const DEFAULT_EMBED_DIM: number;

export function hashEmbed(text: string, dim?: number): number[];
export function defaultReply(body: RequestBody): string;

export class OllamaDouble {
  constructor(options?: OllamaDoubleOptions);
  models: string[];
  reply: Reply;
  delayMs: number;
  failStatus: number | null;
  failMessage: string;
  failTimes: number;
  garbage: boolean;
  embed: (text: string, model: string) => number[];
  rejectFormat: boolean | number;
  version: string;
  failModels: Record<string, number>;
  /** Models that answered, as `/api/ps` lists them loaded. */
  loaded: Set<string>;
  /** Every request, in arrival order, recorded before it is handled. */
  requests: RecordedRequest[];
  server: Server | null;
  /** Change behaviour at runtime; only the given keys change. */
  configure(options: OllamaDoubleOptions): this;
  /** Back to the defaults plus the constructor's options, with no recorded requests. */
  reset(): this;
  hasModel(model: string): boolean;
  requestsTo(path: string): RecordedRequest[];
  start(port?: number): Promise<StartedDouble>;
  close(): Promise<void>;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createOllamaDouble(options?: OllamaDoubleOptions): OllamaDouble;
