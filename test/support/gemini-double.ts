/**
 * A Gemini API server on 127.0.0.1 for the agent suite (Gemini CLI reaches it through
 * GOOGLE_GEMINI_BASE_URL with an API key). Node built-ins only.
 *
 * - `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`: server-sent events, one `data:` chunk holding the
 *   whole candidate; `:generateContent`: the same candidate as one JSON object. The test's `respond(body)` decides
 *   the main turns (requests that offer tools): text or one function call. Gemini CLI's own side requests (no
 *   tools: routing, next-speaker checks, summaries) get `sideText(body)` (a JSON answer when it asks for JSON).
 * - `POST ...:countTokens` -> `{totalTokens}` (a character count / 4).
 * Every request is recorded (method, path, parsed body, raw byte length) before it is answered.
 */
import type { ServerResponse } from 'node:http';
import { RecordingServer, sendJson, type RecordedRequest } from './recording-server.js';

export type GeminiTurn = { text: string } | { call: { name: string; args: Record<string, unknown> } };

export type RecordedGeminiRequest = RecordedRequest;

export class GeminiDouble {
  private readonly http = new RecordingServer((request, res) => this.answer(request, res));
  readonly requests: RecordedGeminiRequest[] = this.http.requests;
  respond: (body: Record<string, unknown>) => GeminiTurn = () => ({ text: 'Done.' });

  /** Listens on 127.0.0.1; returns the base URL (`http://127.0.0.1:<port>`). */
  start(): Promise<string> {
    return this.http.start();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The main model turns (content requests that offer tools), in order. */
  turns(): RecordedGeminiRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && /:(stream)?[gG]enerateContent$/.test(r.path) && isMainTurn(r.body));
  }

  private async answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const { method, path, body } = request;
    if (method === 'POST' && path.endsWith(':countTokens')) {
      sendJson(res, 200, { totalTokens: Math.ceil(request.bytes / 4) });
      return;
    }
    const stream = path.endsWith(':streamGenerateContent');
    if (method !== 'POST' || body === null || !(stream || path.endsWith(':generateContent'))) {
      sendJson(res, 404, { error: { code: 404, message: `no route ${method} ${path}`, status: 'NOT_FOUND' } });
      return;
    }
    let turn: GeminiTurn;
    try {
      turn = isMainTurn(body) ? this.respond(body) : { text: sideText(body) };
    } catch (err) {
      sendJson(res, 500, { error: { code: 500, message: String(err), status: 'INTERNAL' } });
      return;
    }
    const parts = 'call' in turn ? [{ functionCall: { name: turn.call.name, args: turn.call.args } }] : [{ text: turn.text }];
    const chunk = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'recall-double',
    };
    if (!stream) {
      sendJson(res, 200, chunk);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end();
  }
}

function isMainTurn(body: Record<string, unknown> | null): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

/** Gemini CLI's side requests that ask for JSON (next speaker, routing) get a plain, valid answer. */
function sideText(body: Record<string, unknown>): string {
  const config = (body.generationConfig ?? {}) as Record<string, unknown>;
  if (config.responseMimeType === 'application/json') return JSON.stringify({ reasoning: 'double', next_speaker: 'user', model_choice: 'flash' });
  return 'Summary from the double.';
}


/** Every text a request's contents and system instruction carry, joined. */
export function geminiRequestText(body: Record<string, unknown> | null): string {
  if (body === null) return '';
  return JSON.stringify({ system: body.systemInstruction, contents: body.contents });
}

/** The responses of the function calls a request's contents carry, in order. */
export function functionResponses(body: Record<string, unknown> | null): string[] {
  const contents = (body?.contents ?? []) as { parts?: Record<string, unknown>[] }[];
  return contents.flatMap((content) => content.parts ?? []).flatMap((part) => (part.functionResponse === undefined ? [] : [JSON.stringify(part.functionResponse)]));
}

/** The function names a request offers the model. */
export function declaredFunctions(body: Record<string, unknown> | null): string[] {
  const tools = (body?.tools ?? []) as { functionDeclarations?: { name: string }[] }[];
  return tools.flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name));
}
