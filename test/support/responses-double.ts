/**
 * An OpenAI Responses API server on 127.0.0.1 for the agent suite (Codex CLI speaks it: `wire_api =
 * "responses"`). Node built-ins only.
 *
 * - `POST <base>/responses`: the test's `respond(body)` decides the turn, either text or one function call.
 *   With `"stream": true` the answer is server-sent events as the real API sends them (`response.created`,
 *   `response.output_item.added`, `response.output_text.delta` for text, `response.output_item.done`,
 *   `response.completed` with the usage); otherwise one JSON response.
 * - anything else -> 404 in the API's error shape.
 * Every request is recorded (method, path, parsed body, raw byte length) before it is answered.
 */
import type { ServerResponse } from 'node:http';
import { RecordingServer, sendJson, type RecordedRequest } from './recording-server.js';

/** A text answer, or one function call (`namespace` for a tool offered inside a namespace, as Codex offers MCP tools). */
export type ResponsesTurn = { text: string } | { call: { name: string; namespace?: string; arguments: Record<string, unknown> } };

export type { RecordedRequest };

export type RespondResponses = (body: Record<string, unknown>) => ResponsesTurn;

export class ResponsesDouble {
  private readonly http = new RecordingServer((request, res) => this.answer(request, res));
  readonly requests: RecordedRequest[] = this.http.requests;
  respond: RespondResponses;
  private count = 0;

  constructor(respond: RespondResponses = () => ({ text: 'Done.' })) {
    this.respond = respond;
  }

  /** Listens on 127.0.0.1; returns the base URL (`http://127.0.0.1:<port>/v1`). */
  async start(): Promise<string> {
    return `${await this.http.start()}/v1`;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The recorded model turns (`POST .../responses` with a body), in order. */
  turns(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/responses') && r.body !== null);
  }

  private async answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const { method, path, body } = request;
    if (method !== 'POST' || !path.endsWith('/responses') || body === null) {
      sendJson(res, 404, { error: { type: 'invalid_request_error', message: `no route ${method} ${path}` } });
      return;
    }
    let turn: ResponsesTurn;
    try {
      turn = this.respond(body);
    } catch (err) {
      sendJson(res, 500, { error: { type: 'server_error', message: String(err) } });
      return;
    }
    this.count += 1;
    const id = `resp_double_${this.count}`;
    const item =
      'call' in turn
        ? {
            type: 'function_call',
            id: `fc_double_${this.count}`,
            call_id: `call_double_${this.count}`,
            ...(turn.call.namespace === undefined ? {} : { namespace: turn.call.namespace }),
            name: turn.call.name,
            arguments: JSON.stringify(turn.call.arguments),
            status: 'completed',
          }
        : { type: 'message', id: `msg_double_${this.count}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] };
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
    const response = { id, object: 'response', status: 'completed', model: body.model, output: [item], usage };
    if (body.stream !== true) {
      sendJson(res, 200, response);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (type: string, data: Record<string, unknown>): void => {
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    };
    send('response.created', { response: { ...response, status: 'in_progress', output: [] } });
    send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', ...('content' in item ? { content: [] } : {}) } });
    if (!('call' in turn)) send('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: turn.text });
    send('response.output_item.done', { output_index: 0, item });
    send('response.completed', { response });
    res.end();
  }
}


/** Every text a request's `instructions` and `input` items carry, joined. */
export function responsesRequestText(body: Record<string, unknown> | null): string {
  if (body === null) return '';
  return JSON.stringify({ instructions: body.instructions, input: body.input });
}

/** The outputs of the function calls a request's input carries, in order. */
export function functionOutputs(body: Record<string, unknown> | null): string[] {
  const input = (body?.input ?? []) as Record<string, unknown>[];
  return input.filter((item) => item.type === 'function_call_output').map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}

/** The names of the tools a request offers the model (namespaced MCP tools as `<namespace>.<name>`). */
export function toolNames(body: Record<string, unknown> | null): string[] {
  const tools = (body?.tools ?? []) as Record<string, unknown>[];
  return tools.flatMap((tool) => {
    if (Array.isArray(tool.tools)) return (tool.tools as Record<string, unknown>[]).map((inner) => `${String(tool.name)}.${String(inner.name)}`);
    return typeof tool.name === 'string' ? [tool.name] : [];
  });
}
