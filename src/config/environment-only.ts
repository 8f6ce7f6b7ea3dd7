/**
 * Environment variables recall reads that are no config key (ENV_OVERRIDES lists the ones that are):
 * where the state lives, switches for a single process, and what agents and terminals set. One
 * table, so the README lists them all and a test finds any new one (core/process-switches.ts reads
 * the two switches). No imports: hooks may load it.
 */
export interface EnvironmentOnlyVar {
  name: string;
  description: string;
}

export const ENVIRONMENT_ONLY: readonly EnvironmentOnlyVar[] = Object.freeze([
  {
    name: 'RECALL_HOME',
    description:
      'State dir (config, queue, store, log), default `~/.recall`. `recall install` writes it into the hooks and the MCP server entry, so install again after changing it (a RECALL_HOME already in the MCP entry\'s `env` stays).',
  },
  { name: 'RECALL_HOOK_SPAWN', description: '`false` (or 0, no, off): hooks only queue work and never start a worker; run `recall drain` yourself, e.g. from cron.' },
  { name: 'RECALL_NO_SERVE', description: '`1` (or true, yes): this process never uses a running `recall serve`; it works in-process.' },
  { name: 'RECALL_MAINTAIN_S3_CREDENTIALS', description: 'Internal: hands an s3:// store\'s credentials to the background upkeep process it starts; not for users to set.' },
  { name: 'CLAUDE_CONFIG_DIR', description: 'Claude Code\'s settings folder (default `~/.claude`), where `recall endless` finds session transcripts.' },
  { name: 'CLAUDE_PROJECT_DIR', description: 'Set by Claude Code for hooks: the project a session belongs to when its input names no folder.' },
  { name: 'FACTORY_PROJECT_DIR', description: 'Set by Factory droid for hooks: the project a session belongs to when its input names no folder.' },
  { name: 'CODEX_HOME', description: 'Codex CLI\'s home folder (default `~/.codex`): `recall install --target codex` and `recall doctor` use its `hooks.json` and `config.toml`.' },
  { name: 'COPILOT_HOME', description: 'GitHub Copilot CLI\'s home folder (default `~/.copilot`), set by Copilot in every hook\'s environment: `recall install --target copilot` and `recall doctor` use its `hooks/recall.json` and `mcp-config.json`, and the hooks find a session\'s `session-state/<id>/events.jsonl` there.' },
  { name: 'COPILOT_CLI', description: 'Set to `1` by GitHub Copilot CLI for hooks: a hook without `--agent` (a project\'s Claude Code hooks run by Copilot) knows the session is Copilot\'s.' },
  { name: 'HOME', description: 'The user\'s home folder: where the hooks look for `~/.copilot` when `COPILOT_HOME` is not set.' },
  { name: 'PATH', description: '`recall doctor` looks for each agent\'s program on it (`claude`, `droid`, `codex`, `gemini`, `copilot`, `qwen`): an agent neither there nor with its settings folder is reported as not installed, not warned about.' },
  { name: 'QWEN_PROJECT_DIR', description: 'Set by Qwen Code for hooks (beside CLAUDE_PROJECT_DIR): tells recall a hook without `--agent` runs in Qwen Code, and the project a session belongs to when its input names no folder.' },
  { name: 'NO_COLOR', description: 'Set: no colour in the CLI\'s output.' },
  { name: 'COLUMNS', description: 'On a terminal: the width `recall list` and `recall search` lay their tables out for (piped, they print one line per memory).' },
  { name: 'TERM', description: '`dumb`: `recall doctor` marks its checks in ASCII.' },
  { name: 'LANCE_CPU_THREADS', description: 'LanceDB\'s CPU pool; recall sets it (at least 4) unless you do.' },
  { name: 'LANCE_IO_THREADS', description: 'Reads LanceDB issues at once; `recall serve` and the MCP server set it to 2 for a local store unless you do.' },
  { name: 'LANCEDB_LOG', description: 'LanceDB\'s own log level; recall sets `error` unless you do.' },
  { name: 'MALLOC_ARENA_MAX', description: 'glibc\'s malloc arenas; the background upkeep recall starts gets `2` unless you set it (with the two below it keeps the upkeep\'s memory down; docs/import-memory.md). Set all three for `recall import` into a big store yourself.' },
  { name: 'MALLOC_MMAP_THRESHOLD_', description: 'glibc\'s malloc: buffers from this size on are mapped and handed back when freed; the background upkeep gets `1048576` unless you set it.' },
  { name: 'MALLOC_TRIM_THRESHOLD_', description: 'glibc\'s malloc: free memory past this at the top of the heap goes back to the system; the background upkeep gets `1048576` unless you set it.' },
]);
