/**
 * `recall mcp`'s front (src/mcp/serve-mcp-fast.ts) as agents run it, the built bin as a subprocess:
 * `initialize` and `tools/list` are answered before the full server (MCP SDK, zod, the store, the
 * embedder) is loaded, with the SDK server's own answers; the stream is then handed to the full server,
 * which serves every later message as if it had answered from the start.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';
import { BIN } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { onJsonLines } from '../support/json-lines.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(HERE, '../../dist');
const PROBE = resolve(HERE, '../support/module-load-probe.cjs');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

interface Raw {
  child: ChildProcessWithoutNullStreams;
  send(message: unknown): void;
  next(id: number | string | null): Promise<Record<string, unknown>>;
  /** Every message the server wrote, in order. */
  all: Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

function startRaw(name: string, extraEnv: Record<string, string> = {}, nodeArgs: string[] = []): Raw {
  const home = join(h.root, `front-${name}`);
  mkdirSync(home, { recursive: true });
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'mcp'], { cwd: h.project(`front-${name}`), env: { ...h.env, RECALL_HOME: home, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
  const all: Array<Record<string, unknown>> = [];
  const waiting = new Map<unknown, (message: Record<string, unknown>) => void>();
  onJsonLines(child.stdout, (message) => {
    all.push(message);
    waiting.get(message.id)?.(message);
  });
  return {
    child,
    all,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    next: (id) => {
      const seen = all.find((message) => message.id === id);
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolvePromise) => waiting.set(id, resolvePromise));
    },
    stop: async () => {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolvePromise) => child.once('exit', resolvePromise));
    },
  };
}

/** The SDK server's own answers to initialize and tools/list, from the source (in process). */
async function sdkAnswers(): Promise<{ initialize: unknown; list: unknown }> {
  const server = createMcpServer({ runtime: {} as never, logger: { log: () => undefined }, cwd: '/', project: {} as never }, { size: 0 } as never, '0.1.0');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: Array<{ result?: Record<string, unknown> }> = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push(message as { result?: Record<string, unknown> });
    return send(message, options);
  };
  await server.connect(serverSide);
  const client = new Client({ name: 'raw', version: '1' });
  await client.connect(clientSide);
  await client.listTools();
  await client.close();
  return { initialize: sent.find((m) => m.result?.serverInfo !== undefined)?.result, list: sent.find((m) => Array.isArray(m.result?.tools))?.result };
}

describe('recall mcp front', () => {
  it('answers initialize and tools/list before loading the full server: no ESM loader, only the bin and the front', async () => {
    const probe = join(h.root, 'front-probe.json');
    const raw = startRaw('probe', { RECALL_TEST_MODULE_PROBE: probe, RECALL_TEST_MODULE_PROBE_AT: '"id":2,' }, ['--require', PROBE]);
    try {
      raw.send(INITIALIZE);
      raw.send(INITIALIZED);
      raw.send(LIST);
      const list = (await raw.next(2)) as { result: { tools: Array<{ name: string }> } };
      expect(list.result.tools.map((tool) => tool.name).sort()).toEqual(['memory_forget', 'memory_recent', 'memory_search', 'memory_store']);
      const loaded = JSON.parse(readFileSync(probe, 'utf8')) as { builtins: string[]; required: string[] };
      // The full server is an ESM file (with the MCP SDK and zod folded in) that imports the store and
      // the embedder: none of it had been loaded when the list went out.
      expect(loaded.builtins).not.toContain('NativeModule internal/modules/esm/loader');
      expect(loaded.required.filter((file) => file !== PROBE)).toEqual([BIN, join(DIST, 'mcp/serve-mcp-fast.cjs')]);
      // And the first call after it is served by the full server.
      raw.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_recent', arguments: {} } });
      const call = (await raw.next(3)) as { result: CallToolResult };
      expect(call.result.isError, JSON.stringify(call)).toBeFalsy();
    } finally {
      await raw.stop();
    }
  });

  it("gives the SDK server's own answers, for the protocol version the client asked or the latest", async () => {
    const { initialize, list } = await sdkAnswers();
    const raw = startRaw('answers');
    try {
      raw.send(INITIALIZE);
      raw.send(INITIALIZED);
      raw.send(LIST);
      expect((await raw.next(1)).result).toEqual({ ...(initialize as object), protocolVersion: '2025-06-18' });
      expect((await raw.next(2)).result).toEqual(list);
    } finally {
      await raw.stop();
    }
    const other = startRaw('answers-version');
    try {
      other.send({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '1999-01-01' } });
      const answer = (await other.next(1)) as { result: { protocolVersion: string } };
      expect(answer.result.protocolVersion).toBe((initialize as { protocolVersion: string }).protocolVersion);
    } finally {
      await other.stop();
    }
  });

  it('answers each request once: the replayed initialize is not answered again, and every later message reaches the full server', async () => {
    const raw = startRaw('once');
    try {
      raw.send(INITIALIZE);
      raw.send(INITIALIZED);
      // A call before any list: handed to the full server at once.
      raw.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'memory_recent', arguments: {} } });
      raw.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
      raw.send(LIST);
      await raw.next(5);
      await raw.next(6);
      await raw.next(2);
      expect(raw.all.map((message) => message.id).sort()).toEqual([1, 2, 5, 6]);
    } finally {
      await raw.stop();
    }
  });

  it('hands a client that skips initialize to the full server, which answers as the SDK does', async () => {
    const raw = startRaw('no-initialize');
    try {
      raw.send(LIST);
      raw.child.stdin.write('not json at all\n');
      const list = (await raw.next(2)) as { result?: { tools: unknown[] }; error?: unknown };
      const parseError = (await raw.next(null)) as { error: { code: number } };
      expect(list.result?.tools ?? list.error).toBeDefined();
      expect(parseError.error.code).toBe(-32700);
    } finally {
      await raw.stop();
    }
  });
});
