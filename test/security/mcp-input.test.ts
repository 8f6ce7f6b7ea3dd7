/**
 * `recall mcp` reading what a client sends: a line that is not JSON gets a Parse error (-32700), a
 * message over 10 MiB an Invalid Request error, and the server keeps answering; a client that stops
 * reading does not crash it. The built server as
 * a subprocess, spoken to in raw JSON-RPC lines.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

interface Answer {
  jsonrpc: string;
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

function startServer(): { child: ChildProcessWithoutNullStreams; answers: Answer[]; exited: () => boolean } {
  const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: h.project('mcp-input'), env: h.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers: Answer[] = [];
  let pending = '';
  let exited = false;
  child.once('exit', () => (exited = true));
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      answers.push(JSON.parse(pending.slice(0, end)) as Answer);
      pending = pending.slice(end + 1);
    }
  });
  return { child, answers, exited: () => exited };
}

/** Stops the server and waits for it: it logs its stop into the state dir the harness removes next. */
async function stopServer(server: ReturnType<typeof startServer>): Promise<void> {
  const exited = new Promise((resolve) => (server.exited() ? resolve(undefined) : server.child.once('exit', resolve)));
  server.child.kill();
  await exited;
}

const initialize = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`;

describe('recall mcp, given lines that are not messages it can take', () => {
  it('answers a line that is not JSON with -32700 and keeps serving', async () => {
    const server = startServer();
    try {
      server.child.stdin.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
      server.child.stdin.write(initialize(2));
      await waitFor(() => (server.answers.length >= 2 ? true : undefined), { timeoutMs: 20_000 });
      expect(server.answers[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      expect(server.answers[1]).toMatchObject({ id: 2, result: { serverInfo: expect.any(Object) } });
    } finally {
      await stopServer(server);
    }
  });

  it('answers valid JSON that is not JSON-RPC with -32600, naming its id', async () => {
    const server = startServer();
    try {
      server.child.stdin.write(`${JSON.stringify({ id: 5, hello: 'world' })}\n`);
      server.child.stdin.write(initialize(6));
      await waitFor(() => (server.answers.length >= 2 ? true : undefined), { timeoutMs: 20_000 });
      expect(server.answers[0]).toMatchObject({ id: 5, error: { code: -32600 } });
      expect(server.answers[1]).toMatchObject({ id: 6, result: expect.any(Object) });
    } finally {
      await stopServer(server);
    }
  });

  it('exits 0 without a crash when the client stops reading its answers', async () => {
    const server = startServer();
    let stderr = '';
    server.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.stdin.write(initialize(1));
    await waitFor(() => (server.answers.length >= 1 ? true : undefined), { timeoutMs: 20_000 });
    server.child.stdout.destroy();
    for (let id = 2; id < 6; id += 1) server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });

  it('answers a message over 10 MiB with an error for its id, stays up, and answers the next request', async () => {
    const server = startServer();
    try {
      const huge = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'memory_store', arguments: { content: 'x'.repeat(11 * 1024 * 1024) } } });
      // Written in pieces, as a pipe delivers it.
      for (let at = 0; at < huge.length; at += 1024 * 1024) server.child.stdin.write(huge.slice(at, at + 1024 * 1024));
      server.child.stdin.write('\n');
      server.child.stdin.write(initialize(8));
      await waitFor(() => (server.answers.length >= 2 || server.exited() ? true : undefined), { timeoutMs: 30_000 });
      expect(server.exited()).toBe(false);
      expect(server.answers[0]).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringMatching(/message too large: over 10485760 bytes/) } });
      expect(server.answers[1]).toMatchObject({ id: 8, result: expect.any(Object) });
    } finally {
      await stopServer(server);
    }
  });
});
