/**
 * The write-time check of a memory's text: does it read like an instruction smuggled into the agent's
 * context rather than a note about the project? Flagged memories are quarantined: stored, never injected,
 * never returned by the MCP server, until the user approves them (`recall review`). Pure.
 */

export type InstructionFlag = 'override' | 'remote-script' | 'exfiltration' | 'hidden-text' | 'control-tag';

interface Rule {
  flag: InstructionFlag;
  pattern: RegExp;
}

const RULES: readonly Rule[] = [
  {
    flag: 'override',
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|any|other|system|safety|the user's)\b[^.\n]{0,20}\b(?:instructions?|rules?|prompts?|guidelines?|messages?)\b|\byou are now\b|\bnew (?:system )?instructions?\s*:|\bsystem prompt\b|\bdeveloper mode\b|\bjailbreak/i,
  },
  {
    flag: 'remote-script',
    pattern:
      /\b(?:curl|wget|fetch|iwr|invoke-webrequest|irm)\b[^|\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:curl|wget)\b[^|\n]{0,200}\|\s*(?:python3?|node|perl|ruby)\b|\biex\s*\(|\bpowershell(?:\.exe)?\s+-(?:e|enc|encodedcommand)\b|\bbase64\s+(?:-d|--decode)\b[^|\n]{0,80}\|\s*(?:ba)?sh\b|\beval\s*\(\s*(?:atob|Buffer\.from)/i,
  },
  {
    flag: 'exfiltration',
    pattern:
      /\b(?:curl|wget|nc|netcat|scp|rsync)\b[^\n]{0,200}(?:~\/\.ssh|\.aws\/credentials|\.netrc|\.env\b|id_rsa|\$\{?(?:AWS_SECRET|GITHUB_TOKEN|OPENAI_API_KEY|ANTHROPIC_API_KEY)|printenv|\benv\b\s*\|)|\b(?:send|post|upload|email|exfiltrate|forward)\b[^.\n]{0,60}\b(?:secrets?|credentials?|tokens?|api keys?|passwords?|private keys?|ssh keys?)\b[^.\n]{0,40}\b(?:to|at)\b\s+\S+/i,
  },
  { flag: 'hidden-text', pattern: /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069]|\uDB40[\uDC00-\uDC7F]/ },
  {
    flag: 'control-tag',
    pattern: /<\s*\/?\s*(?:system-reminder|recall-context|system|command-(?:name|message|args)|local-command-\w+|function_calls|invoke|tool_use|tool_result|antml:\w+|user-prompt-submit-hook|task-notification)\b/i,
  },
];

/** Why `content` reads like an instruction to the agent; empty when it reads like a note. */
export function flagInstructions(content: string): InstructionFlag[] {
  return RULES.filter((rule) => rule.pattern.test(content)).map((rule) => rule.flag);
}
