/**
 * Runs after scripts/bundle-hooks.mjs: writes dist/mcp/static-answers.json, the answers `recall mcp`'s
 * front gives to `initialize` and `tools/list` before the full server is loaded (src/mcp/serve-mcp-fast.ts).
 * They are the SDK server's own answers: the built server (dist/mcp/create-mcp-server.js, the same
 * tools, schemas and instructions the running server registers) is asked over an in-memory transport,
 * so the front can never list tools the server does not have. Usage: node scripts/write-mcp-answers.mjs [distDir]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

const dist = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));
const { version } = JSON.parse(readFileSync(join(dist, '../package.json'), 'utf8'));
const { createMcpServer } = await import(pathToFileURL(join(dist, 'mcp/create-mcp-server.js')).href);

// Listing calls no tool: the context the tools would use is never touched.
const unused = new Proxy({}, { get: (_, key) => { throw new Error(`write-mcp-answers: the tool list touched ctx.${String(key)}`); } });
const server = createMcpServer({ runtime: unused, logger: { log: () => undefined }, cwd: dist, project: unused }, { size: 0 }, version);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
let initialize;
let list;
// The server's own answers, as they go out (not as the client reads them back).
const send = serverSide.send.bind(serverSide);
serverSide.send = (message, options) => {
  if (message.result?.serverInfo !== undefined) initialize = message.result;
  if (Array.isArray(message.result?.tools)) list = message.result;
  return send(message, options);
};
await server.connect(serverSide);
const client = new Client({ name: 'recall-build', version });
await client.connect(clientSide);
await client.listTools();
await client.close();

if (initialize === undefined || list === undefined) throw new Error('write-mcp-answers: the server did not answer initialize and tools/list');
const { protocolVersion: _, ...initializeRest } = initialize;
const answers = { supportedVersions: SUPPORTED_PROTOCOL_VERSIONS, latestVersion: LATEST_PROTOCOL_VERSION, initialize: initializeRest, list };
writeFileSync(join(dist, 'mcp/static-answers.json'), `${JSON.stringify(answers)}\n`);
