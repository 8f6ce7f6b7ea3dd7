/**
 * An OpenAI Chat Completions server on 127.0.0.1 for the agent suite (Qwen Code speaks it through its
 * OpenAI-compatible provider: OPENAI_BASE_URL). Node built-ins only.
 *
 * - `POST <base>/chat/completions`: the test's `respond(body)` decides the turn, either text or one function
 *   call. With `"stream": true` the answer is server-sent `chat.completion.chunk` events as the real API sends
 *   them (the role, the content or the tool call's name and arguments as deltas, a last chunk with
 *   `finish_reason` and the usage, then `data: [DONE]`); otherwise one `chat.completion`.
 * - `GET <base>/models`: one model, the name the test runs with.
 * - anything else -> 404 in the API's error shape.
 * Every request is recorded (method, path, parsed body, raw byte length) before it is answered.
 */
import type { ServerResponse } from 'node:http';
import { RecordingServer, sendJson, type RecordedRequest } from './recording-server.js';

export type ChatTurn = { text: string } | { call: { name: string; arguments: Record<string, unknown> } };

export type { RecordedRequest };

export type RespondChat = (body: Record<string, unknown>) => ChatTurn;

export class ChatCompletionsDouble {
  private readonly http = new RecordingServer((request, res) => this.answer(request, res));
  readonly requests: RecordedRequest[] = this.http.requests;
  respond: RespondChat;
  private count = 0;

  constructor(respond: RespondChat = () => ({ text: 'Done.' })) {
    this.respond = respond;
  }

  /** Listens on 127.0.0.1; returns the base URL (`http://127.0.0.1:<port>/v1`). */
  async start(): Promise<string> {
    return `${await this.http.start()}/v1`;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The recorded model turns (`POST .../chat/completions` with a body), in order. */
  turns(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions') && r.body !== null);
  }

  private async answer(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const { method, path, body } = request;
    if (method === 'GET' && path.endsWith('/models')) {
      sendJson(res, 200, { object: 'list', data: [{ id: 'qwen-double', object: 'model', created: 0, owned_by: 'double' }] });
      return;
    }
    if (method !== 'POST' || !path.endsWith('/chat/completions') || body === null) {
      sendJson(res, 404, { error: { type: 'invalid_request_error', message: `no route ${method} ${path}` } });
      return;
    }
    let turn: ChatTurn;
    try {
      turn = this.respond(body);
    } catch (err) {
      sendJson(res, 500, { error: { type: 'server_error', message: String(err) } });
      return;
    }
    this.count += 1;
    const id = `chatcmpl-double-${this.count}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const toolCall = 'call' in turn ? { id: `call_double_${this.count}`, type: 'function', function: { name: turn.call.name, arguments: JSON.stringify(turn.call.arguments) } } : null;
    const finish = toolCall === null ? 'stop' : 'tool_calls';
    const message = toolCall === null ? { role: 'assistant', content: (turn as { text: string }).text } : { role: 'assistant', content: null, tool_calls: [toolCall] };
    if (body.stream !== true) {
      sendJson(res, 200, { id, object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}): void => {
      const chunk = { id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    send({ role: 'assistant', content: '' }, null);
    if (toolCall === null) send({ content: (turn as { text: string }).text }, null);
    else {
      send({ tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }] }, null);
      send({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }, null);
    }
    send({}, finish, { usage });
    res.write('data: [DONE]\n\n');
    res.end();
  }
}


/** Every text a request's messages carry, joined. */
export function chatRequestText(body: Record<string, unknown> | null): string {
  return body === null ? '' : JSON.stringify(body.messages ?? []);
}

/** The contents of the tool messages a request carries (the results of the model's calls), in order. */
export function toolMessages(body: Record<string, unknown> | null): string[] {
  const messages = (body?.messages ?? []) as Record<string, unknown>[];
  return messages.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** The names of the functions a request offers the model. */
export function chatToolNames(body: Record<string, unknown> | null): string[] {
  const tools = (body?.tools ?? []) as Record<string, unknown>[];
  return tools.flatMap((tool) => {
    const fn = tool.function as Record<string, unknown> | undefined;
    return typeof fn?.name === 'string' ? [fn.name] : [];
  });
}
