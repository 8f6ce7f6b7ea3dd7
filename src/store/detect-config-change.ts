/**
 * Does the text change how the agent, git or the package tools are set up? Agent settings (Claude Code's
 * settings files, permissions such as `permissions.allow` or bypass modes, hooks, MCP server
 * registrations, other agents' equivalents), git's configuration and hooks (`git config core.hooksPath`,
 * `.git/hooks`, credential helpers, `insteadOf`), the shell's start files and authorized keys; and
 * package registries and remotes (`npm config set registry`, pip's index URL, `git remote set-url`,
 * `git push --mirror`). A mention without a change ("hooks live in .claude/settings.json") and a
 * prohibition ("never edit .git/hooks") are left alone. Pure, over normalised text.
 */
import { URL, firstUnprohibited, globally, hostsIn, isProhibited } from './screen-lexicon.js';

const CHANGE = String.raw`(?:edit|modify|change|update|add|append|write|overwrite|remove|delete|rm|replace|set|put|insert|patch|clear|empty|wipe|disable|turn\s+off|comment\s+out|strip|drop|register|unregister|uninstall|install|create|enable|allow|grant|whitelist|allowlist|echo|tee|sed\s+-i|jq|cp|mv|ln|chmod|cat\s*>|truncate|configure|point|switch|redirect)`;
const AGENT_FILE = String.raw`(?:\.claude/settings(?:\.local)?\.json|~?/?\.claude\.json|\.claude/(?:hooks|settings)|claude_desktop_config\.json|\.mcp\.json|\.cursor/(?:mcp\.json|hooks\.json)|\.vscode/mcp\.json|\.codex/config\.toml|\.gemini/settings\.json|\.factory/(?:settings|mcp)\.json|\.continue/config\.\w+|cline_mcp_settings\.json|opencode\.jsonc?|\.aider\.conf\.yml|\.windsurf/mcp\.json|settings\.local\.json)`;
const AGENT_KEY = String.raw`(?:permissions\.(?:allow|deny|ask|defaultmode)|"?allow"?\s*:\s*\[|"?defaultmode"?|bypasspermissions|dangerously-?skip-?permissions|--yolo\b|yolo\s+mode|auto-?approve|always-?allow|enableallprojectmcpservers|disableallhooks|"?hooks"?\s*:\s*\{\s*\}|--allowedtools|allowed_?tools|approval[_-]?(?:policy|mode)|--full-auto|danger-full-access|sandbox_mode|skipdangerousmodepermissionprompt|bash\(\*\)|bash\(curl|bash\(rm)`;
const HOOK_NAME = String.raw`(?:sessionstart|sessionend|pretooluse|posttooluse|userpromptsubmit|precompact|subagentstop|notification|stop)`;

const AGENT_CHANGES: readonly RegExp[] = globally([
  new RegExp(`(?<![\\w-])${CHANGE}(?![\\w-])[^.\\n]{0,100}?${AGENT_FILE}`),
  new RegExp(`${AGENT_FILE}[^.\\n]{0,60}?(?<![\\w-])${CHANGE}(?![\\w-])`),
  new RegExp(`>{1,2}\\s*["']?\\S*${AGENT_FILE}`),
  new RegExp(AGENT_KEY),
  // MCP servers registered from the command line or in words.
  /(?<![\w-])(?:claude|codex|gemini|cursor|amp|droid|opencode|qwen|goose)\s+mcp\s+add(?:-json)?\b|"?mcpservers"?\s*:|\[mcp_servers[.\]]/,
  new RegExp(`(?<![\\w-])(?:register|add|install|configure|connect(?:\\s+to)?|enable|set\\s+up|hook\\s+up)(?![\\w-])[^.\\n]{0,60}?\\bmcp\\s+servers?\\b[^.\\n]{0,60}?(?:${URL}|npx|uvx|node|python|docker|\\bat\\b|\\bfrom\\b|--)`),
  // Hooks: the agent's or git's, removed, disabled or replaced.
  /(?<![\w-])(?:remove|delete|disable|clear|empty|strip|drop|turn\s+off|comment\s+out|unregister|uninstall|bypass|skip|deactivate|wipe|replace|rewrite|overwrite)(?![\w-])[^.\n]{0,60}?\b(?:(?:recall|agent|claude|session|security|safety|audit|capture|memory|git|pre-commit|pre-push|commit|all|the|its|every)\s+)?hooks?\b/,
  new RegExp(`(?<![\\w-])(?:remove|delete|disable|clear|empty|replace|change|edit|modify|drop|strip|rewrite)(?![\\w-])[^.\\n]{0,60}?\\b${HOOK_NAME}\\b(?:\\s+hooks?|\\s+entr(?:y|ies)|\\s+handlers?|\\s*:)`),
  // git's configuration and hooks.
  /\bcore\.hookspath\b|(?:^|[\s"'/])\.git\/hooks\b[^\n]{0,3}|\.git\/config\b[^.\n]{0,40}(?:>|write|edit|add|append|set)|(?<![\w-])(?:>|>>|tee|cp|mv|ln\s+-s\S*|cat\s*>)\s*[^\n]{0,40}\.git\/(?:hooks|config)\b/,
  /(?<![\w-])git\s+config\s+(?:--(?:global|system|local|worktree)\s+)?(?:--(?:add|replace-all)\s+)?(?:core\.(?:sshcommand|fsmonitor|pager|editor|gitproxy|askpass|hookspath)|credential\.\S*helper|url\.\S+\.(?:insteadof|pushinsteadof)|https?\.\S*(?:proxy|sslverify)|include(?:if)?\.\S*|diff\.\S*external|gpg\.\S*program|alias\.\S+|remote\.\S+\.(?:url|pushurl)|protocol\.\S*allow|uploadpack\.\S+|receive\.\S+|filter\.\S+\.(?:clean|smudge|process)|safe\.directory\s+["']?\*)/,
  // Permission prompts answered for the user, the agent's sandbox turned off.
  /(?<![\w-])(?:approve|accept|allow|grant|say\s+yes\s+to|answer\s+yes\s+to|auto-?approve)\s+(?:all|every|any)\s+(?:\w+\s+)?(?:permission|tool|command|bash)\s*(?:requests?|prompts?|calls?|uses?|dialogs?)?|(?<![\w-])(?:disable|turn\s+off|bypass|escape|skip)\s+(?:the\s+|your\s+)?(?:agent'?s?\s+|claude'?s?\s+|codex'?s?\s+)?(?:permission\s+(?:prompts?|checks?|system)|sandbox(?:ing)?\s+(?:of|for)\s+(?:the\s+)?(?:agent|claude|codex|bash\s+tool))/,
  // Shell start files, cron and authorized keys: what runs later, or who may log in.
  /(?:>{1,2}|tee\s+(?:-a\s+)?)\s*["']?(?:~|\$home|\/root|\/home\/\w+)?\/?\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|config\/fish\/config\.fish|ssh\/authorized_keys|ssh\/config)\b|authorized_keys\b[^\n]{0,20}(?:>|add|append)|(?:>|add|append)[^\n]{0,40}authorized_keys|(?:>{1,2}|tee\s+(?:-a\s+)?)\s*["']?\/etc\/(?:cron[\w.]*|sudoers[\w.]*|profile\.d|environment|ld\.so\.preload|rc\.local)|(?<![\w-])crontab\s+(?:-\s|-l\s*\||[^\s-]+\s*$)|\|\s*crontab\b/,
]);

const KNOWN_REGISTRIES = /^(?:registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com|pypi\.org|pypi\.python\.org|files\.pythonhosted\.org|test\.pypi\.org|download\.pytorch\.org|pypi\.nvidia\.com|proxy\.golang\.org|sum\.golang\.org|crates\.io|index\.crates\.io|rubygems\.org|api\.nuget\.org|repo\.packagist\.org|conda\.anaconda\.org|registry\.npmmirror\.com|pypi\.tuna\.tsinghua\.edu\.cn|mirrors\.aliyun\.com|goproxy\.cn|goproxy\.io)$/;

const REGISTRY_SETTINGS: readonly RegExp[] = globally([
  /(?<![\w-])(?:npm|pnpm|yarn|bun)\s+(?:config\s+)?set\s+(?:["']?@[\w-]+:)?registry\b[^\n]{0,120}|(?<![\w-])yarn\s+config\s+set\s+npmregistryserver\b[^\n]{0,120}|(?<![\w-])(?:npm|pnpm|yarn|bun|npx)\s+[^\n]{0,80}--registry[= ]\S+|(?:^|[\s"'])(?:@[\w-]+:)?registry\s*=\s*\S+|npm_config_registry\s*=\s*\S+|npmregistryserver\s*[:=]\s*["']?\S+/,
  /(?<![\w-])pip[0-9.]*\s+config\s+set\s+\S*(?:index-url|trusted-host)[^\n]{0,120}|--(?:extra-)?index-url[= ]\S+|(?:^|[\s"'])(?:extra-)?index-url\s*=\s*\S+|replace-with\s*=\s*\S+|--trusted-host[= ]\S+|(?:pip|uv)_(?:extra_)?index(?:_url)?\s*=\s*\S+|(?<![\w-])poetry\s+(?:source\s+add|config\s+repositories)[^\n]{0,120}|(?<![\w-])gem\s+sources?\s+(?:-a|--add)\s+\S+|(?<![\w-])(?:dotnet\s+nuget\s+add\s+source|nuget\s+sources\s+add)[^\n]{0,120}|(?<![\w-])composer\s+config\s+repositories[^\n]{0,120}|(?<![\w-])conda\s+config\s+--add\s+channels\s+\S+|goproxy\s*=\s*\S+/,
]);
const ALWAYS_REGISTRY: readonly RegExp[] = globally([
  // The model API or the traffic sent elsewhere.
  /(?<![\w-])(?:anthropic_base_url|openai_base_url|openai_api_base|anthropic_api_url|claude_code_api_url)\s*[=:]\s*["']?(?!https?:\/\/(?:localhost|127\.0\.0\.1))\S+/,
  /(?<![\w-])(?:gosumdb\s*=\s*off|gonosumdb\s*=|gonosumcheck\s*=|goinsecure\s*=|goflags\s*=\s*["']?-insecure|node_tls_reject_unauthorized\s*=\s*["']?0|strict-ssl\s*(?:=\s*)?false|sslverify\s*(?:=\s*)?false|pip_trusted_host\s*=)/,
  // Remotes: where the code goes.
  /(?<![\w-])git\s+remote\s+(?:set-url|add)\s+(?:--\S+\s+)*\S+\s+\S+|(?<![\w-])git\s+push\s+(?:[^\n]{0,40}\s)?--mirror\b|(?<![\w-])git\s+push\s+(?:-\S+\s+)*(?:https?:\/\/|git@|ssh:\/\/)\S+|(?<![\w-])git\s+push\s+(?:-\S+\s+)*--all\s+(?!origin\b)\S+|(?<![\w-])git\s+push\s+(?:-\S+\s+)*(?!origin\b|upstream\b|-)\S+\s+--all\b/,
  new RegExp(`(?<![\\w-])(?:push|mirror|upload|sync|copy)(?![\\w-])\\s+(?:all\\s+|every\\s+|the\\s+|our\\s+|your\\s+)*(?:branches|tags|refs|repo(?:sitory)?|code(?:base)?|source|everything|commits)\\b[^.\\n]{0,30}?\\b(?:to|at)\\s+(?:${URL}|git@)`),
  new RegExp(`(?<![\\w-])git\\s+push\\s+(?:-\\S+\\s+)*--all\\b[^\\n]{0,60}${URL}|${URL}[^\\n]{0,60}git\\s+push\\s+(?:-\\S+\\s+)*--all\\b`),
  new RegExp(`(?<![\\w-])(?:change|set|switch|point|update|repoint|redirect|move)(?![\\w-])\\s+(?:the\\s+|your\\s+|our\\s+)?(?:npm\\s+|pip\\s+|python\\s+|package\\s+|cargo\\s+|go\\s+|git\\s+)?(?:registry|index(?:-url)?|mirror|remote|origin|upstream|push\\s+url)\\b[^.\\n]{0,40}?\\b(?:to|at)\\s+${URL}`),
]);

export function changesAgentConfig(text: string): boolean {
  return firstUnprohibited(text, AGENT_CHANGES);
}

export function changesRegistry(text: string): boolean {
  if (firstUnprohibited(text, ALWAYS_REGISTRY)) return true;
  for (const pattern of REGISTRY_SETTINGS) {
    for (const m of text.matchAll(pattern)) {
      const hosts = hostsIn(m[0]);
      const bareHost = /(?:registry|index-url|index_url|channels|goproxy)[= ]\s*["']?([\w.-]+\.[a-z]{2,})(?=[\s/"']|$)/.exec(m[0])?.[1];
      const named = bareHost === undefined ? hosts : [...hosts, bareHost];
      if (named.length > 0 && named.every((h) => KNOWN_REGISTRIES.test(h))) continue;
      if (named.length === 0 && !/--registry|registry\s*=|index-url|goproxy/.test(m[0])) continue;
      if (!isProhibited(text, m.index ?? 0)) return true;
    }
  }
  return false;
}
