import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { addRecallMcpServer, removeRecallMcpServer } from '../../../src/install/merge-mcp-servers.js';
import { buildMcpServerEntry, isRecallMcpEntry } from '../../../src/install/recall-mcp-server.js';

const CLAUDE = buildMcpServerEntry({ nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', agent: 'claude' });
const FACTORY = buildMcpServerEntry({ nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', agent: 'factory' });
const OTHER = { command: 'npx', args: ['-y', '@playwright/mcp'] };

describe('buildMcpServerEntry', () => {
  it('runs `<node> <cli> mcp` over stdio, with disabled:false for droid', () => {
    expect(CLAUDE).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/recall/dist/cli/main.js', 'mcp'] });
    expect(FACTORY).toEqual({ ...CLAUDE, disabled: false });
  });
});

describe('isRecallMcpEntry', () => {
  it("recognises recall's entries: this command's, the plugin's and a global `recall mcp`", () => {
    expect(isRecallMcpEntry(CLAUDE)).toBe(true);
    expect(isRecallMcpEntry({ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli/main.js', 'mcp'] })).toBe(true);
    expect(isRecallMcpEntry({ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli/main.cjs', 'mcp'] })).toBe(true);
    expect(isRecallMcpEntry({ command: '/usr/local/bin/recall', args: ['mcp'] })).toBe(true);
  });

  it('rejects anything else, including recall running another command', () => {
    expect(isRecallMcpEntry(OTHER)).toBe(false);
    expect(isRecallMcpEntry({ command: 'node', args: ['/opt/recall/dist/cli/main.js', 'search', 'mcp'] })).toBe(false);
    expect(isRecallMcpEntry({ command: 'node', args: ['/opt/recall/dist/cli/main.js', 'mcp', '--x'] })).toBe(false);
    expect(isRecallMcpEntry({ type: 'http', url: 'https://example.test/mcp' })).toBe(false);
    expect(isRecallMcpEntry(null)).toBe(false);
  });
});

describe('addRecallMcpServer', () => {
  it('adds the entry and an mcpServers object when there is none, leaving the input untouched', () => {
    const config = { numStartups: 3 };
    const edit = addRecallMcpServer(config, CLAUDE);
    expect(edit).toMatchObject({ action: 'added', changed: true });
    expect(edit.config).toEqual({ numStartups: 3, mcpServers: { recall: CLAUDE } });
    expect(config).toEqual({ numStartups: 3 });
  });

  it("keeps other servers and reports no change when recall's entry is already there", () => {
    const config = { mcpServers: { playwright: OTHER, recall: CLAUDE } };
    const edit = addRecallMcpServer(config, CLAUDE);
    expect(edit).toMatchObject({ action: 'unchanged', changed: false });
    expect(edit.config).toEqual(config);
  });

  it('updates the command and args of an older entry and keeps keys the user added', () => {
    const old = { type: 'stdio', command: '/old/node', args: ['/old/recall/dist/cli/main.js', 'mcp'], env: { RECALL_HOME: '/data/recall' } };
    const edit = addRecallMcpServer({ mcpServers: { recall: old } }, CLAUDE);
    expect(edit).toMatchObject({ action: 'updated', changed: true });
    expect(edit.config.mcpServers).toEqual({ recall: { ...CLAUDE, env: { RECALL_HOME: '/data/recall' } } });
  });

  it('keeps a droid entry the user disabled disabled', () => {
    const edit = addRecallMcpServer({ mcpServers: { recall: { ...FACTORY, disabled: true } } }, FACTORY);
    expect(edit).toMatchObject({ action: 'unchanged', entry: { disabled: true } });
  });

  it('leaves a different server that happens to be named recall alone', () => {
    const config = { mcpServers: { recall: OTHER } };
    const edit = addRecallMcpServer(config, CLAUDE);
    expect(edit).toMatchObject({ action: 'foreign', changed: false });
    expect(edit.config).toEqual(config);
  });

  it('refuses an mcpServers that is not an object with CONFIG_INVALID', () => {
    try {
      addRecallMcpServer({ mcpServers: ['recall'] }, CLAUDE);
      expect.unreachable();
    } catch (err) {
      expect(isRecallError(err, 'CONFIG_INVALID')).toBe(true);
      expect((err as Error).message).toBe('"mcpServers" must be an object, found an array');
    }
  });
});

describe('removeRecallMcpServer', () => {
  it("removes recall's entry and keeps the others", () => {
    const edit = removeRecallMcpServer({ mcpServers: { playwright: OTHER, recall: CLAUDE } });
    expect(edit).toMatchObject({ action: 'removed', changed: true });
    expect(edit.config).toEqual({ mcpServers: { playwright: OTHER } });
  });

  it('drops mcpServers when the removal emptied it, so an install and an uninstall leave the file as it was', () => {
    const original = { theme: 'dark' };
    expect(removeRecallMcpServer(addRecallMcpServer(original, CLAUDE).config).config).toEqual(original);
  });

  it('changes nothing when recall is absent or the recall entry is not recall', () => {
    expect(removeRecallMcpServer({ theme: 'dark' })).toMatchObject({ action: 'absent', changed: false });
    expect(removeRecallMcpServer({ mcpServers: { recall: OTHER } })).toMatchObject({ action: 'foreign', changed: false, config: { mcpServers: { recall: OTHER } } });
  });
});
