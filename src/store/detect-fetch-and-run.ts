/**
 * Does the text hand something fetched from the network (or decoded from a payload) to an interpreter?
 * Read by structure, whatever the spelling: a pipeline whose later stage is a shell or interpreter reading
 * its code from stdin (`| sudo -E bash -`, `| env sh`, `| tee x | sh`, `| iex`), a process or command
 * substitution handed to one (`bash <(curl ...)`, `sh -c "$(wget ...)"`, `iex (iwr ...)`), a file
 * downloaded and then run, a runner given a URL (`deno run https://...`, `npx github:...`), code that
 * fetches and evals, an encoded PowerShell command, or the same said in words. Pure, over normalised text.
 */
import { DECODER, DOWNLOADER, INTERPRETER, URL, WRAPPERS, firstUnprohibited, globally, isProhibited } from './screen-lexicon.js';

const DOWNLOADS = new RegExp(`(?<![\\w-])${DOWNLOADER}`, 'g');
const URLS = new RegExp(URL, 'g');
const SOURCE = new RegExp(`(?<![\\w-])(?:${DOWNLOADER}|${DECODER})`, 'g');
const HEAD = new RegExp(`^${WRAPPERS}["'(]*((?:[\\w.~-]*[\\\\/])*)([\\w.-]+?)(?=$|[\\s"')])`);
const INTERPRETER_WORD = new RegExp(`^${INTERPRETER}$`);
const ALWAYS_RUNS_INPUT = /^(?:iex|invoke-expression|source|eval)$/;
const CODE_FLAG = /^-(?:c|e|r|p|n|m|-eval|-command|command|file|f|ne|pe|lne)$/;

export function fetchesAndRuns(text: string): boolean {
  return pipesIntoInterpreter(text) || substitutesIntoInterpreter(text) || runsDownloadedFile(text) || RUNS_REMOTE.some((p) => p.test(text)) || firstUnprohibited(text, SAID_IN_WORDS);
}

/** The command a match starts: up to a line end, `&&`, `||`, or `;`, `. ` and `, ` outside quotes. */
function commandAt(text: string, start: number): string {
  let quote: string | null = null;
  for (let i = start; i < Math.min(text.length, start + 800); i += 1) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '\n' || c === '\x60') return text.slice(start, i);
    else if ((c === ';' || c === '.' || c === ',') && /\s/.test(text[i + 1] ?? ' ')) return text.slice(start, i);
    else if ((c === '&' || c === '|') && text[i + 1] === c) return text.slice(start, i);
  }
  return text.slice(start, start + 800);
}

/** Pipeline stages of a command, split on `|` outside quotes. */
function stagesOf(command: string): string[] {
  const stages: string[] = [];
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '|') {
      stages.push(command.slice(from, i));
      from = i + 1;
    }
  }
  stages.push(command.slice(from));
  return stages;
}

/** A pipeline stage that runs what it reads on stdin as code. */
function readsCodeFromStdin(stage: string): boolean {
  const trimmed = stage.trim();
  const head = HEAD.exec(trimmed);
  if (head === null) return false;
  const program = (head[2] ?? '').replace(/\.exe$/, '');
  if (!INTERPRETER_WORD.test(program)) return false;
  if (ALWAYS_RUNS_INPUT.test(program)) return true;
  const args = trimmed.slice(head[0].length).trim().split(/\s+/).filter((a) => a !== '');
  for (const [i, arg] of args.entries()) {
    if (arg === '-' || arg === '/dev/stdin' || arg === '--' || arg === '-s') continue;
    if (CODE_FLAG.test(arg)) {
      const code = args.slice(i + 1).join(' ');
      return args[i + 1] === '-' || /\b(?:exec|eval|stdin|iex)\b|\$\(\s*cat\s*\)/.test(code);
    }
    if (arg.startsWith('-')) continue;
    if (/[./\\]/.test(arg)) return false; // a script file or module: stdin is its data
  }
  return true;
}

function pipesIntoInterpreter(text: string): boolean {
  for (const m of text.matchAll(SOURCE)) {
    const at = m.index ?? 0;
    const stages = stagesOf(commandAt(text, at));
    if (stages.slice(1).some(readsCodeFromStdin) && !isProhibited(text, at)) return true;
  }
  return false;
}

const SUBSTITUTION = /<\(|\$\(|\x60|\(/g;
const HANDED_TO = new RegExp(`(?:^|[\\s;&|("'\x60])(?:${WRAPPERS})?(?:[\\w.~-]*/)*(?:${INTERPRETER}|\\.)(?:\\.exe)?(?:\\s+-{1,2}[\\w-]+)*\\s*["']?\\s*$`);
const HERESTRING = new RegExp(`(?:^|[\\s;&|("'\x60])(?:${WRAPPERS})?(?:[\\w.~-]*/)*(?:${INTERPRETER}|\\.)(?:\\.exe)?(?:\\s+[^\\s<]+)*\\s*<<<\\s*["']?\\s*$`);
const PY_EXEC = /(?<![a-z0-9])(?:exec|eval|execfile|instance_eval|iex|invoke-expression|compile|new function|\[scriptblock\]::create)\s*$/;
const FETCHES = new RegExp(`^(?:[^)\\n]{0,200}?)(?<![\\w-])(?:${DOWNLOADER}|${DECODER})`);

function substitutesIntoInterpreter(text: string): boolean {
  for (const m of text.matchAll(SUBSTITUTION)) {
    const at = m.index ?? 0;
    const inner = text.slice(at + m[0].length, at + m[0].length + 300);
    if (!FETCHES.test(inner)) continue;
    const before = text.slice(Math.max(0, at - 80), at);
    const own = before.slice(Math.max(before.lastIndexOf('|'), before.lastIndexOf(';'), before.lastIndexOf('&&'), before.lastIndexOf('\n')) + 1);
    const handed = m[0] === '(' ? PY_EXEC.test(own) : HANDED_TO.test(own) || HERESTRING.test(own) || PY_EXEC.test(own.replace(/["'\s]+$/, ''));
    if (handed && !isProhibited(text, at)) return true;
  }
  return false;
}

const SAVED_AS = [
  /(?:^|\s)(?:-o|--output|-outfile|--output-document|-O|-destination)(?:\s+|=)["']?([^\s"'|;&)\x60]+)/g,
  /(?<![\d>&])>{1,2}\s*["']?([^\s"'|;&)\x60]+)/g,
  /(?:^|\s)["']?([^\s"'|;&)\x60]+\.(?:exe|sh|ps1|bat|cmd|bin|run|py|pl|rb|js|msi|scr|hta|vbs|jar))(?=["']?(?:\s|$))/g,
  /(?:urlretrieve|downloadfile|download_file)\s*\(\s*["'][^"']*["']\s*,\s*["']([^"']+)["']/g,
];
const RUN_TARGET = [
  new RegExp(`(?:^|[\\s;&|(])(?:${WRAPPERS})?(?:${INTERPRETER}|\\.|start-process|start|call|(?<!&)&(?!&)|invoke-item|ii|chmod\\s+(?:[ugoa]*\\+[rwx]*|[0-7]{3,4}))\\s+(?:-\\S+\\s+)*["']?([^\\s"'|;&)\\x60]+)`, 'g'),
  /(?:^|[\s;&|(]|\bthen\b|\band\b)(\.{1,2}[\\/][^\s"'|;&)\x60]+)/g,
  /(?:^|&&|;|\n|\bthen\b)\s*((?:[a-z]:\\|\/|~\/|\$[\w:]+[\\/])[^\s"'|;&)\x60]+)/g,
];

const baseName = (path: string) => path.replace(/["']/g, '').split(/[\\/]/).pop()?.replace(/[?#].*$/, '').replace(/[.,:;!?]+$/, '') ?? '';

/** A file a downloader saved, run afterwards by name: `curl -o i.sh URL && sh i.sh`, `wget URL; chmod +x x; ./x`. */
function runsDownloadedFile(text: string): boolean {
  for (const m of text.matchAll(DOWNLOADS)) {
    const at = m.index ?? 0;
    const command = commandAt(text, at);
    const names = new Set<string>();
    for (const pattern of SAVED_AS) for (const saved of command.matchAll(pattern)) names.add(baseName(saved[1] ?? ''));
    for (const url of command.matchAll(URLS)) names.add(baseName(url[0]));
    names.delete('');
    names.delete('-');
    if (names.size === 0) continue;
    const after = text.slice(at + m[0].length, at + command.length + 400);
    for (const pattern of RUN_TARGET) {
      for (const run of after.matchAll(pattern)) if (names.has(baseName(run[1] ?? '')) && !isProhibited(text, at)) return true;
    }
  }
  return false;
}

const RUNS_REMOTE: readonly RegExp[] = [
  new RegExp(`(?<![\\w-])(?:deno\\s+(?:run|eval|install)|bun\\s+(?:run|x)|bunx|npx|npm\\s+(?:exec|x)|pnpm\\s+dlx|yarn\\s+dlx|uvx|pipx\\s+run|mshta|msiexec(?:\\s+/\\S+)*|regsvr32(?:\\s+/\\S+)*|rundll32|source|\\.)\\s+(?:-\\S+\\s+)*["']?(?:${URL}|github:|gist:|git\\+https?://|/i:https?://)`),
  /(?<![\w-])(?:powershell|pwsh)(?:\.exe)?(?:\s+-\S+)*\s+-(?:e|en|enc|enco|encod|encodedcommand|ec)\s+["']?[a-z0-9+/=]{12,}/,
  /(?<![a-z])eval\s*\(?\s*(?:get|getstore|urlopen|fetch|download\w*|file_get_contents)\s*\(/,
  /(?:exec|eval|execfile|instance_eval|runpy\.run_path|load|require)\s*\([^\n]{0,120}(?:urlopen|urlretrieve|requests\.get|httpx\.get|urllib|open-uri|uri\.open|lwp|file_get_contents\s*\(\s*["']https?|fetch\s*\(|https?\.get|downloadstring|invoke-webrequest)/,
  /(?:urlopen|requests\.get|httpx\.get|fetch\s*\(|https?\.get|downloadstring|invoke-webrequest|file_get_contents)[^\n]{0,200}(?:\.then\s*\(\s*eval|\|\s*iex|(?<![a-z])exec\s*\(|(?<![a-z_])eval\s*\(|os\.system|subprocess\.|child_process|execsync)/,
];

const ACT = String.raw`(?:run|execute|exec|source|launch|start|eval(?:uate)?|invoke|install)`;
const SAID_IN_WORDS: readonly RegExp[] = globally([
  new RegExp(`(?<![\\w-])(?:download|fetch|grab|get|pull|retrieve|curl|wget)(?![\\w-])[^.\\n]{0,120}?${URL}[^\\n]{0,80}?(?:\\band\\b|\\bthen\\b|&&|,|;)\\s*(?:then\\s+)?${ACT}\\b`),
  new RegExp(`(?<![\\w-])${ACT}\\s+(?:the\\s+|this\\s+|that\\s+)?(?:[\\w-]+\\s+){0,3}?(?:script|installer|file|binary|payload|code|commands?|setup|bootstrap(?:per)?|program)\\s+(?:(?:hosted|located|found|served|published|downloaded)\\s+)?(?:at|from|on|in)\\s+${URL}`),
  new RegExp(`(?<![\\w-])${ACT}\\s+["'\\x60]?${URL}`),
  new RegExp(`(?<![\\w-])(?:pipe|feed|pass|send|redirect)\\s+(?:it|them|this|that|the\\s+[\\w-]+(?:\\s+[\\w-]+)?|(?:the\\s+)?(?:output|response|result|body|contents?)(?:\\s+of\\s+[^.\\n]{0,60}?)?)\\s+(?:in)?to\\s+(?:a\\s+|the\\s+)?${WRAPPERS}(?:shell|interpreter|terminal|${INTERPRETER})\\b`),
]);
