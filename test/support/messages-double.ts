/**
 * An Anthropic Messages API server on 127.0.0.1 for the agent suite: the real agent CLIs talk to it
 * instead of the network. Node built-ins only.
 *
 * - `POST /v1/messages` (any query string): the test's `respond(body)` decides the turn, either text or
 *   one tool call. With `"stream": true` the answer is server-sent events as the real API sends them
 *   (`message_start`, `content_block_start`, `content_block_delta` with `text_delta` or
 *   `input_json_delta`, `content_block_stop`, `message_delta` with the stop reason, `message_stop`);
 *   otherwise one JSON message.
 * - `POST /v1/messages/count_tokens` -> `{input_tokens}` (a character count / 4).
 * - `HEAD /` and `GET /` -> 200 (agents probe the base URL).
 * Every request is recorded (method, path, parsed body, raw byte length) before it is answered.
 */
import type { ServerResponse } from 'node:http';
import { RecordingServer, sendJson, type RecordedRequest } from './recording-server.js';

export type MessagesTurn = { text: string } | { toolUse: { name: string; input: Record<string, unknown> }; text?: string };

export type RecordedMessagesRequest = RecordedRequest;

export type Respond = (body: Record<string, unknown>, double: MessagesDouble) => MessagesTurn;

export class MessagesDouble {
  private readonly http = new RecordingServer((request, res) => this.answer(request, res));
  readonly requests: RecordedMessagesRequest[] = this.http.requests;
  respond: Respond;
  private toolUses = 0;

  constructor(respond: Respond = () => ({ text: 'Done.' })) {
    this.respond = respond;
  }

  /** Listens on 127.0.0.1; returns the base URL (`http://127.0.0.1:<port>`). */
  start(): Promise<string> {
    return this.http.start();
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The recorded `POST /v1/messages` requests (the model turns), in order. */
  turns(): RecordedMessagesRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages' && r.body !== null);
  }

  private async answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const { method, path, body } = request;
    if (method === 'HEAD' || (method === 'GET' && path === '/')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(method === 'HEAD' ? undefined : 'ok');
      return;
    }
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: Math.ceil(request.bytes / 4) });
      return;
    }
    if (method !== 'POST' || path !== '/v1/messages' || body === null) {
      sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${path}` } });
      return;
    }
    let turn: MessagesTurn;
    try {
      turn = this.respond(body, this);
    } catch (err) {
      sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(err) } });
      return;
    }
    const message = this.message(body, turn);
    if (body.stream === true) streamMessage(res, message);
    else sendJson(res, 200, message);
  }

  private message(body: Record<string, unknown>, turn: MessagesTurn): Record<string, unknown> {
    const content: Record<string, unknown>[] = [];
    if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
    if ('toolUse' in turn) {
      this.toolUses += 1;
      content.push({ type: 'tool_use', id: `toolu_double_${String(this.toolUses).padStart(4, '0')}`, name: turn.toolUse.name, input: turn.toolUse.input });
    }
    return {
      id: `msg_double_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: typeof body.model === 'string' ? body.model : 'double',
      content,
      stop_reason: 'toolUse' in turn ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
  }
}


function streamMessage(res: ServerResponse, message: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (event: string, data: unknown): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const content = message.content as Record<string, unknown>[];
  send('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** Every text a request's messages carry (user text, tool results, system reminders), joined. */
export function requestText(body: Record<string, unknown> | null): string {
  if (body === null) return '';
  return JSON.stringify({ system: body.system, messages: body.messages });
}

/** The text of the last message's tool results, or null when the last message carries none. */
export function lastToolResults(body: Record<string, unknown> | null): string[] | null {
  const messages = body?.messages as { role: string; content: unknown }[] | undefined;
  const last = messages?.at(-1);
  if (!last || !Array.isArray(last.content)) return null;
  const results = (last.content as Record<string, unknown>[]).filter((block) => block.type === 'tool_result');
  if (results.length === 0) return null;
  return results.map((block) => (typeof block.content === 'string' ? block.content : JSON.stringify(block.content)));
}

/** The text of every tool result a request's messages carry, in order. */
export function allToolResults(body: Record<string, unknown> | null): string[] {
  const messages = (body?.messages ?? []) as { content: unknown }[];
  return messages
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []))
    .filter((block) => block.type === 'tool_result')
    .map((block) => (typeof block.content === 'string' ? block.content : JSON.stringify(block.content)));
}
