/**
 * The write-time screen: a memory that reads like an instruction to the agent, or a global rule an MCP
 * client wrote, is quarantined (stored, never injected into a session, never returned by the MCP server)
 * until the user approves it with `recall review`. What the user typed in a terminal (`recall add`) is
 * theirs and is not screened. Pure.
 */
import type { MemoryOrigin } from '../core/memory.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { flagInstructions, type InstructionFlag } from './flag-instructions.js';

export const QUARANTINED = 'quarantined';

export type QuarantineReason = InstructionFlag | 'global-from-mcp';

export interface Screened {
  status: typeof QUARANTINED | null;
  reasons: QuarantineReason[];
}

export function screenMemory(content: string, origin: Pick<MemoryOrigin, 'namespace' | 'source'>): Screened {
  if (origin.source === 'manual') return { status: null, reasons: [] };
  const reasons: QuarantineReason[] = flagInstructions(content);
  if (origin.source === 'mcp' && origin.namespace === GLOBAL_NAMESPACE) reasons.push('global-from-mcp');
  return { status: reasons.length > 0 ? QUARANTINED : null, reasons };
}

/** The reasons in words, for `recall review` and log lines. */
export const REASON_TEXT: Readonly<Record<QuarantineReason, string>> = {
  override: 'tells the agent to ignore its instructions',
  'remote-script': 'runs code fetched from the network or decoded from a payload',
  exfiltration: 'sends files, the environment or secrets to another machine',
  'data-link': 'holds a link or image whose address carries data out',
  'agent-config': "changes the agent's or git's configuration (settings, permissions, hooks, MCP servers)",
  registry: 'changes a package registry or a git remote',
  'hidden-text': 'holds bidirectional controls or invisible tag characters',
  'control-tag': "holds the agent's control tags",
  'global-from-mcp': 'a rule for every project, written by an agent through MCP',
};
