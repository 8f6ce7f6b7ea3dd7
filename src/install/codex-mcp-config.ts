/**
 * Adds recall's MCP server to Codex's `config.toml` (`[mcp_servers.recall]`), and takes it out again, as an
 * edit of the text: every other line, comment and table stays byte for byte. Pure.
 *
 * The file is parsed (smol-toml) to refuse an invalid one and to find what is there; the edit appends,
 * replaces or removes recall's table block; the result is parsed again and must equal the expected value
 * (the old one with only `mcp_servers.recall` changed), else nothing is written. A `recall` server that
 * is not recall's, or one written in a form the block edit cannot reach (dotted keys, an inline table),
 * is left alone with a note.
 */
import { parse } from 'smol-toml';
import { ENV_OVERRIDES } from '../config/env-overrides.js';
import { RecallError } from '../core/errors.js';
import { isObject } from '../core/is-object.js';
import type { McpServerAction } from './merge-mcp-servers.js';
import { MCP_SERVER_NAME, isRecallMcpEntry, type McpServerEntry } from './recall-mcp-server.js';

export interface TomlMcpEdit {
  text: string;
  action: McpServerAction | 'unreachable';
  changed: boolean;
  /** The `mcp_servers` table before and after, for the report's diff. */
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** Codex waits this long for a server's first answer; recall's loads its store first (default 10 s). */
export const CODEX_MCP_STARTUP_TIMEOUT_SEC = 30;

const HEADER = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:recall|"recall"|'recall')[ \t]*\][ \t]*(?:#.*)?$/;
const SUB_HEADER = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:recall|"recall"|'recall')[ \t]*\./;
const ANY_HEADER = /^[ \t]*\[/;

export function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (err) {
    throw new RecallError('CONFIG_INVALID', `${file} is not valid TOML (${(err as Error).message.split('\n')[0]}); fix it first, recall changed nothing`, { cause: err });
  }
}

/**
 * Codex starts an MCP server with a short list of the environment's variables only (PATH, HOME, ...), so
 * the variables recall reads (RECALL_HOME and every config override, OLLAMA_HOST among them) are named in
 * `env_vars`, which Codex passes on from its own environment when they are set.
 */
export const CODEX_FORWARDED_ENV: readonly string[] = [...new Set(['RECALL_HOME', ...ENV_OVERRIDES.map(([name]) => name)])].sort();

/** The Codex entry: `command`, `args`, the forwarded variables, and RECALL_HOME in `env` when install has one. */
export function codexMcpEntry(entry: McpServerEntry): McpServerEntry {
  const { command, args, env } = entry;
  return { command, args, env_vars: [...CODEX_FORWARDED_ENV], ...(isObject(env) ? { env } : {}), startup_timeout_sec: CODEX_MCP_STARTUP_TIMEOUT_SEC };
}

export function addCodexMcpServer(text: string, file: string, entry: McpServerEntry): TomlMcpEdit {
  const config = parseToml(text, file);
  const servers = serversOf(config);
  const existing = servers[MCP_SERVER_NAME];
  const wanted = codexMcpEntry(entry);
  if (existing !== undefined && !isRecallMcpEntry(existing)) return unchanged(text, servers, 'foreign');
  if (existing !== undefined) {
    // The user's own keys (other env values, timeouts they set) stay; recall's are written anew.
    const merged: Record<string, unknown> = { ...(existing as Record<string, unknown>), command: wanted.command, args: wanted.args, env_vars: wanted.env_vars };
    if (isObject(wanted.env)) merged.env = { ...(isObject(merged.env) ? merged.env : {}), ...wanted.env };
    if (JSON.stringify(merged) === JSON.stringify(existing)) return unchanged(text, servers, 'unchanged');
    const cut = cutBlock(text);
    if (cut === null) return unchanged(text, servers, 'unreachable');
    const next = `${cut.head}${renderBlock(merged)}${cut.tail === '' ? '' : `\n${cut.tail}`}`;
    return verified(next, file, config, merged, 'updated');
  }
  const separator = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return verified(`${text}${separator}${renderBlock(wanted)}`, file, config, wanted, 'added');
}

export function removeCodexMcpServer(text: string, file: string): TomlMcpEdit {
  const config = parseToml(text, file);
  const servers = serversOf(config);
  const existing = servers[MCP_SERVER_NAME];
  if (existing === undefined) return unchanged(text, servers, 'absent');
  if (!isRecallMcpEntry(existing)) return unchanged(text, servers, 'foreign');
  const cut = cutBlock(text);
  if (cut === null) return unchanged(text, servers, 'unreachable');
  const head = cut.head.replace(/\n{2,}$/, '\n');
  const next = cut.tail === '' ? head : `${head}${head === '' || head.endsWith('\n') ? '' : '\n'}${cut.tail}`;
  return verified(next, file, config, undefined, 'removed');
}

function serversOf(config: Record<string, unknown>): Record<string, unknown> {
  const servers = config.mcp_servers;
  if (servers === undefined) return {};
  if (!isObject(servers)) throw new RecallError('CONFIG_INVALID', '"mcp_servers" must be a table');
  return servers;
}

function unchanged(text: string, servers: Record<string, unknown>, action: TomlMcpEdit['action']): TomlMcpEdit {
  return { text, action, changed: false, before: servers, after: servers };
}

/** The text before recall's table block and after it (its sub-tables included), or null when it has no block. */
function cutBlock(text: string): { head: string; tail: string } | null {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => HEADER.test(line));
  if (start === -1) return null;
  let end = start + 1;
  while (end < lines.length && !(ANY_HEADER.test(lines[end]!) && !SUB_HEADER.test(lines[end]!))) end += 1;
  // Blank lines and comments just before the next table belong to it.
  while (end > start + 1 && /^[ \t]*(?:#.*)?$/.test(lines[end - 1]!) && end < lines.length) end -= 1;
  const head = lines.slice(0, start).join('\n');
  return { head: start === 0 ? '' : `${head}\n`, tail: lines.slice(end).join('\n') };
}

function renderBlock(entry: Record<string, unknown>): string {
  const lines = [`[mcp_servers.${MCP_SERVER_NAME}]`];
  const tables: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (isObject(value)) {
      tables.push(`[mcp_servers.${MCP_SERVER_NAME}.${tomlKey(key)}]`, ...Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`));
    } else {
      lines.push(`${tomlKey(key)} = ${tomlValue(value)}`);
    }
  }
  return `${[...lines, ...tables].join('\n')}\n`;
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** JSON's string escapes are TOML basic-string escapes; numbers, booleans and arrays of them read the same. */
function tomlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  throw new RecallError('CONFIG_INVALID', `cannot write ${typeof value} into config.toml`);
}

/** Parses the edited text and checks that only `mcp_servers.recall` changed; refuses the edit otherwise. */
function verified(text: string, file: string, before: Record<string, unknown>, entry: Record<string, unknown> | undefined, action: McpServerAction): TomlMcpEdit {
  const expected = structuredClone(before);
  const servers = isObject(expected.mcp_servers) ? expected.mcp_servers : (expected.mcp_servers = {});
  if (entry === undefined) delete servers[MCP_SERVER_NAME];
  else servers[MCP_SERVER_NAME] = entry;
  let after: Record<string, unknown> = {};
  try {
    after = parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch {
    after = { unparsable: text };
  }
  if (JSON.stringify(normalize(after)) !== JSON.stringify(normalize(expected))) {
    throw new RecallError('CONFIG_INVALID', `${file}: recall could not edit [mcp_servers.${MCP_SERVER_NAME}] without touching other settings; edit it by hand (recall changed nothing)`);
  }
  return { text, action, changed: true, before: serversOf(before), after: serversOf(after) };
}

/** Keys sorted, dates as text, an empty `mcp_servers` dropped: two configs Codex reads alike compare equal. */
function normalize(config: Record<string, unknown>): unknown {
  const copy = { ...config };
  if (isObject(copy.mcp_servers) && Object.keys(copy.mcp_servers).length === 0) delete copy.mcp_servers;
  return sortKeys(copy);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value instanceof Date ? value.toISOString() : value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
}
