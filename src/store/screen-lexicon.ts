/**
 * The words the write-time screen's detectors share, over normalised text (normalise-for-screen.ts:
 * lower-cased, look-alikes folded): programs that fetch, decode or interpret, the wrappers that run a
 * program for another, loopback hosts, and whether a match stands under a prohibition ("never run ...").
 * Pure.
 */

/** Programs and calls that fetch from the network. */
export const DOWNLOADER = String.raw`(?:curl|wget2?|aria2c|axel|curlie|xh|https?(?=\s+(?:get|post|put|-\S*|https?://))|lwp-request|iwr|irm|invoke-webrequest|invoke-restmethod|start-bitstransfer|bitsadmin|certutil|tftp|fetch(?=\s+(?:-\S*\s+)*["']?(?:https?|ftp)://)|(?:new-object\s+)?(?:system\.)?net\.webclient|\.download(?:string|file|data)|urlopen|urlretrieve|urllib|requests\.get|httpx\.get|open-uri|uri\.open|lwp::simple|file_get_contents\s*\(\s*["']https?|fetch\s*\(\s*["'\x60]https?|https?\.get\s*\()`;

/** Programs that turn an encoded payload back into text: base64, hex, rot13, ... */
export const DECODER = String.raw`(?:base64\s+(?:-\S*d\S*|--decode)|openssl\s+(?:enc\s+)?(?:-\S+\s+)*(?:base64|-a)\b[^|\n]{0,20}-d|b64decode|frombase64string|atob\s*\(|buffer\.from\s*\([^)]{0,200}(?:base64|hex)|xxd\s+(?:-\S+\s+)*-r|xxd\s+-r|uudecode|gunzip|zcat|gzip\s+-d|bzip2\s+-d|xz\s+-d|rev\b|tr\s+["']?a-z["']?\s+["']?n-za-m|printf\s+["'][^"'\n]*\\(?:x[0-9a-f]{2}|[0-7]{3})|echo\s+-e\s+["'][^"'\n]*\\x[0-9a-f]{2}|bytes\.fromhex|codecs\.decode)`;

/** Programs that run code they are handed: shells, interpreters, PowerShell's Invoke-Expression. */
export const INTERPRETER = String.raw`(?:(?:ba|z|da|k|c|tc|a|mk|y|rb|fi)?sh|fish|pwsh(?:\.exe)?|powershell(?:\.exe)?|cmd(?:\.exe)?|python[0-9.]*|py|pypy3?|node(?:js)?|deno|bun|perl|ruby|php[0-9]*|lua(?:jit)?|rscript|osascript|tclsh|iex|invoke-expression|source|eval|exec)`;

/** Run another program: sudo -E, env FOO=1, doas, nohup, xargs, ... with their options. */
export const WRAPPERS = String.raw`(?:(?:sudo|doas|env|nohup|command|exec|time|nice|stdbuf|busybox|xargs|timeout\s+\d+\S*|run0|pkexec|su\s+-c)(?:\s+(?:-[ug]\s+\S+|--(?:user|group|chdir)\s+\S+|-{1,2}[a-z][\w-]*(?:=\S+)?|[a-z_][a-z0-9_]*=\S*|root))*\s+)*`;

export const URL = String.raw`(?:https?|ftp|wss?)://[^\s"'<>\x60)\]]+`;

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?|[\w.-]+\.localhost|host\.docker\.internal)$/;

/** The hosts of every URL in `text`. */
export function hostsIn(text: string): string[] {
  return [...text.matchAll(/(?:https?|ftp|wss?):\/\/(?:[^\s/@"'<>]*@)?(\[[^\]]*\]|[^\s/:?#"'<>\x60)]+)/g)].map((m) => (m[1] ?? '').toLowerCase());
}

/** Every host named in `text` is this machine (or none is named, when `bare` counts as loopback). */
export function onlyLoopback(text: string): boolean {
  const hosts = [...hostsIn(text), ...[...text.matchAll(/(?:^|[\s@"'=])((?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?)(?=[\s/"']|$)/g)].map((m) => (m[1] ?? '').replace(/:\d+$/, ''))];
  return hosts.length > 0 && hosts.every((h) => LOOPBACK_HOST.test(h));
}

const CLAUSE_END = /[.!?;:,\n]\s|[\n。！？；：，]|\b(?:but|instead|then|and then|so|however)\b/g;
const PROHIBITION = /(?<![\p{L}])(?:never|don't|dont|doesn't|won't|do not|does not|must not|mustn't|should not|shouldn't|shall not|may not|cannot|can't|avoid|forbid(?:den)?|prohibit(?:ed)?|no longer|stop|refuse to|instead of|rather than|without)(?![\p{L}])/u;
const NOT_A_PROHIBITION = /(?<![\p{L}])(?:never|not|don't|dont|do not)\s+(?:forget|hesitate|skip|fail|wait|bother|ask|need|worry)(?![\p{L}])/u;

/** The match at `index` stands under a prohibition in its own clause: "never run `curl ... | sh`". */
export function isProhibited(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 100), index);
  let start = 0;
  for (const m of before.matchAll(CLAUSE_END)) start = (m.index ?? 0) + m[0].length;
  const clause = before.slice(start);
  return PROHIBITION.test(clause) && !NOT_A_PROHIBITION.test(clause);
}

/** Whether any match of these global patterns does not stand under a prohibition. */
export function firstUnprohibited(text: string, patterns: readonly RegExp[]): boolean {
  for (const pattern of patterns) {
    for (const m of text.matchAll(pattern)) if (!isProhibited(text, m.index ?? 0)) return true;
  }
  return false;
}

/** The same patterns, global (for matchAll). */
export function globally(patterns: readonly RegExp[]): RegExp[] {
  return patterns.map((p) => new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`));
}
