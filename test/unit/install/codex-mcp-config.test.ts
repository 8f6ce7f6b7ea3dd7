import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { CODEX_FORWARDED_ENV, addCodexMcpServer, removeCodexMcpServer, parseToml } from '../../../src/install/codex-mcp-config.js';
import { buildMcpServerEntry } from '../../../src/install/recall-mcp-server.js';

const FILE = '/home/me/.codex/config.toml';
const entry = buildMcpServerEntry({ nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', agent: 'codex', recallHome: null });
const USER = ['# my settings', 'model = "gpt-5"', '', '[model_providers.local]', 'base_url = "http://127.0.0.1:1234/v1" # loopback', 'wire_api = "responses"', ''].join('\n');

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('the Codex config.toml MCP edit', () => {
  it("appends recall's table and keeps every byte of the user's file above it", () => {
    const edit = addCodexMcpServer(USER, FILE, entry);
    expect(edit.action).toBe('added');
    expect(edit.text.startsWith(USER)).toBe(true);
    const parsed = parseToml(edit.text, FILE) as { mcp_servers: { recall: Record<string, unknown> }; model_providers: unknown };
    expect(parsed.mcp_servers.recall).toEqual({ command: '/usr/bin/node', args: ['/opt/recall/dist/cli/main.js', 'mcp'], env_vars: CODEX_FORWARDED_ENV, startup_timeout_sec: 30 });
    expect(CODEX_FORWARDED_ENV).toEqual(expect.arrayContaining(['RECALL_HOME', 'RECALL_EMBEDDER', 'OLLAMA_HOST']));
    expect(parsed.model_providers).toEqual({ local: { base_url: 'http://127.0.0.1:1234/v1', wire_api: 'responses' } });
  });

  it('is idempotent, and uninstall gives back the exact text the user had', () => {
    const added = addCodexMcpServer(USER, FILE, entry);
    const again = addCodexMcpServer(added.text, FILE, entry);
    expect(again).toMatchObject({ action: 'unchanged', changed: false, text: added.text });
    const removed = removeCodexMcpServer(added.text, FILE);
    expect(removed.action).toBe('removed');
    expect(removed.text).toBe(USER);
  });

  it('writes RECALL_HOME into the env table and updates an entry from another checkout, keeping the user keys in it', () => {
    const withHome = buildMcpServerEntry({ nodePath: '/usr/bin/node', cliPath: '/new/dist/cli/main.js', agent: 'codex', recallHome: '/data/recall "x"' });
    const old = `${USER}\n[mcp_servers.recall]\ncommand = "node"\nargs = ["/old/dist/cli/main.js", "mcp"]\ntool_timeout_sec = 99\n\n[mcp_servers.other]\ncommand = "other"\n`;
    const edit = addCodexMcpServer(old, FILE, withHome);
    expect(edit.action).toBe('updated');
    const parsed = parseToml(edit.text, FILE) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(parsed.mcp_servers.recall).toEqual({
      command: '/usr/bin/node',
      args: ['/new/dist/cli/main.js', 'mcp'],
      tool_timeout_sec: 99,
      env_vars: CODEX_FORWARDED_ENV,
      env: { RECALL_HOME: '/data/recall "x"' },
    });
    expect(parsed.mcp_servers.other).toEqual({ command: 'other' });
    expect(edit.text.startsWith(USER)).toBe(true);
  });

  it('removes only recall\'s table and its sub-tables, not the next server', () => {
    const text = `${USER}\n[mcp_servers.recall]\ncommand = "node"\nargs = ["/x/dist/cli/main.js", "mcp"]\n[mcp_servers.recall.env]\nRECALL_HOME = "/r"\n\n# the next one\n[mcp_servers.other]\ncommand = "other"\n`;
    const edit = removeCodexMcpServer(text, FILE);
    expect(edit.action).toBe('removed');
    expect(edit.text).toBe(`${USER}\n# the next one\n[mcp_servers.other]\ncommand = "other"\n`);
  });

  it('leaves a server named recall that is not recall\'s alone', () => {
    const text = `[mcp_servers.recall]\ncommand = "python"\nargs = ["my_recall.py"]\n`;
    expect(addCodexMcpServer(text, FILE, entry)).toMatchObject({ action: 'foreign', changed: false, text });
    expect(removeCodexMcpServer(text, FILE)).toMatchObject({ action: 'foreign', changed: false, text });
  });

  it('leaves an entry written as dotted keys alone rather than guessing at its lines', () => {
    const text = `[mcp_servers]\nrecall.command = "node"\nrecall.args = ["/x/dist/cli/main.js", "mcp"]\n`;
    expect(removeCodexMcpServer(text, FILE)).toMatchObject({ action: 'unreachable', changed: false, text });
  });

  it('refuses a file that is not valid TOML and names it', () => {
    const err = thrown(() => addCodexMcpServer('model = \n[broken', FILE, entry));
    expect(isRecallError(err, 'CONFIG_INVALID')).toBe(true);
    expect(String((err as Error).message)).toContain(FILE);
  });

  it('creates the table in an empty file', () => {
    const edit = addCodexMcpServer('', FILE, entry);
    expect(edit.text.startsWith('[mcp_servers.recall]\n')).toBe(true);
    expect(removeCodexMcpServer(edit.text, FILE).text).toBe('');
  });
});
