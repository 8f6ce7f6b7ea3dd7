/**
 * Adds recall's MCP server to a parsed agent MCP config, and takes it out again. Pure: never mutates its
 * input, keeps every other server and key. A server named `recall` that is not recall's is left alone.
 */
import { RecallError } from '../core/errors.js';
import { isObject } from '../core/is-object.js';
import type { JsonObject } from './merge-hooks.js';
import { MCP_SERVER_NAME, OWNED_KEYS, isRecallMcpEntry, type McpServerEntry } from './recall-mcp-server.js';

export type McpServerAction = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent' | 'foreign';

export interface McpServersEdit {
  config: JsonObject;
  action: McpServerAction;
  /** False when the result is deep-equal to the input. */
  changed: boolean;
  /** The entry as it ends up (null when there is none); lets the caller see, e.g., `disabled: true`. */
  entry: JsonObject | null;
}

export function addRecallMcpServer(config: JsonObject, entry: McpServerEntry): McpServersEdit {
  const servers = checkServers(config);
  const existing = servers?.[MCP_SERVER_NAME];
  if (existing !== undefined && !isRecallMcpEntry(existing)) {
    return { config: structuredClone(config), action: 'foreign', changed: false, entry: isObject(existing) ? existing : null };
  }
  const next = structuredClone(config);
  const nextServers = isObject(next.mcpServers) ? next.mcpServers : (next.mcpServers = {});
  if (existing === undefined) {
    nextServers[MCP_SERVER_NAME] = structuredClone(entry);
    return { config: next, action: 'added', changed: true, entry: nextServers[MCP_SERVER_NAME] as JsonObject };
  }
  const current = nextServers[MCP_SERVER_NAME] as JsonObject;
  const before = JSON.stringify(current);
  for (const key of OWNED_KEYS) {
    if (key in entry) current[key] = structuredClone(entry[key]);
  }
  // The rest of `env` is the user's; RECALL_HOME is written only when this install has one, never taken out.
  const home = isObject(entry.env) ? entry.env.RECALL_HOME : undefined;
  if (typeof home === 'string') current.env = { ...(isObject(current.env) ? current.env : {}), RECALL_HOME: home };
  const same = before === JSON.stringify(current);
  return { config: next, action: same ? 'unchanged' : 'updated', changed: !same, entry: current };
}

/** Removes recall's entry; drops `mcpServers` only when that emptied it. */
export function removeRecallMcpServer(config: JsonObject): McpServersEdit {
  const servers = checkServers(config);
  const existing = servers?.[MCP_SERVER_NAME];
  if (existing === undefined) return { config: structuredClone(config), action: 'absent', changed: false, entry: null };
  if (!isRecallMcpEntry(existing)) {
    return { config: structuredClone(config), action: 'foreign', changed: false, entry: isObject(existing) ? existing : null };
  }
  const next = structuredClone(config);
  const nextServers = next.mcpServers as JsonObject;
  delete nextServers[MCP_SERVER_NAME];
  if (Object.keys(nextServers).length === 0) delete next.mcpServers;
  return { config: next, action: 'removed', changed: true, entry: null };
}

function checkServers(config: JsonObject): JsonObject | undefined {
  const servers = config.mcpServers;
  if (servers === undefined) return undefined;
  if (!isObject(servers)) {
    throw new RecallError('CONFIG_INVALID', `"mcpServers" must be an object, found ${Array.isArray(servers) ? 'an array' : servers === null ? 'null' : `a ${typeof servers}`}`);
  }
  return servers;
}
