/** Which agent ran a hook: the `--agent <name>` recall install puts in the command, else what the payload shows. Pure. */
import type { Agent } from '../queue/job.js';

const NAMED: readonly Agent[] = ['claude', 'factory', 'codex', 'gemini', 'copilot', 'qwen'];

/** The agent `--agent` names, or null (Claude Code's hooks carry no flag). */
export function namedAgent(args: readonly string[]): Agent | null {
  const flag = args.indexOf('--agent');
  const named = flag >= 0 ? args[flag + 1] : undefined;
  return NAMED.find((agent) => agent === named) ?? null;
}

export function detectAgent(args: readonly string[], env: NodeJS.ProcessEnv, transcriptPath: string): Agent {
  const named = namedAgent(args);
  if (named !== null) return named;
  // Copilot CLI keeps a session in $COPILOT_HOME/session-state/<id>/events.jsonl, and sets COPILOT_CLI=1 (and CLAUDE_PROJECT_DIR) for hooks.
  if (env.COPILOT_CLI === '1' || /[/\\]session-state[/\\][^/\\]+[/\\]events\.jsonl$/.test(transcriptPath)) return 'copilot';
  // Codex writes its sessions as rollout-<time>-<id>.jsonl under $CODEX_HOME/sessions.
  if (/[/\\]sessions[/\\]/.test(transcriptPath) && /[/\\]rollout-[^/\\]*\.jsonl$/.test(transcriptPath)) return 'codex';
  // Gemini CLI writes its sessions as session-<time>-<id>.jsonl under ~/.gemini/tmp/<project>/chats.
  if (/[/\\]\.gemini[/\\]tmp[/\\]/.test(transcriptPath) && /[/\\]chats[/\\]session-[^/\\]*\.jsonl?$/.test(transcriptPath)) return 'gemini';
  // Qwen Code writes its sessions as <id>.jsonl under ~/.qwen/projects/<project>/chats, and sets QWEN_PROJECT_DIR (and CLAUDE_PROJECT_DIR) for hooks.
  if (env.QWEN_PROJECT_DIR || (/[/\\]\.qwen[/\\]projects[/\\]/.test(transcriptPath) && /[/\\]chats[/\\][^/\\]+\.jsonl$/.test(transcriptPath))) return 'qwen';
  if (env.FACTORY_PROJECT_DIR || /[/\\]\.factory[/\\]/.test(transcriptPath)) return 'factory';
  if (env.CLAUDE_PROJECT_DIR || /[/\\]\.claude[/\\]/.test(transcriptPath)) return 'claude';
  return 'unknown';
}
