/**
 * Credentials handed to programs and servers in their own syntax: login commands (`docker login -u ci -p
 * PW`, `oc login -p`), password flags of single-dash tools (`-storepass`, `-passin pass:PW`, `zip -P`,
 * `redis-cli -a`), `htpasswd -b` user/password pairs, `--password-stdin` fed by `echo`, `printf` or a
 * here-string, SQL password clauses (`IDENTIFIED BY`, `WITH PASSWORD`), JDBC URLs with `user/password@`,
 * and Cookie / Set-Cookie headers and `curl -b`/`--cookie`. Each keeps what names the credential and
 * replaces the secret. Pure.
 */
import { redactionMarker } from './redact-blocks.js';
import { isPlainWord, isReferenceOrPlaceholder } from './judge-value.js';
import { literalIndex } from './combined-pattern.js';

interface CommandRule {
  kind: string;
  /** Group 1 is the secret (a quoted one keeps its quotes). */
  pattern: RegExp;
  /** Every match holds one of these (lower-case): a text holding none is not searched. */
  needs: readonly string[];
  /** The secret is a credential even when it reads as a plain word (a password given on a command line). */
  anyWord?: boolean;
}

/** A value on a command line: quoted whole, or one unquoted word. */
const ARG = String.raw`("[^"\n]+"|'[^'\n]+'|[^\s'"|;&<>]+)`;

const RULES: readonly CommandRule[] = [
  // `<tool> login ... -p PW` / `--password PW` (docker, podman, helm registry, oras, oc, cf, az, argocd...).
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:login|logon|auth)\b[^\n]*?[ \t]-[pP](?:[ \t]+|=)(?!-)${ARG}`, 'g'), needs: ['login', 'logon', 'auth'], anyWord: true },
  // Tools whose -p/-P/-a/-w is a password, given apart (`-p PW`), and archivers that take it glued (`7z -pPW`).
  {
    kind: 'password',
    pattern: new RegExp(String.raw`\b(?:sshpass|mongo|mongosh|mongodump|mongorestore|sqlcmd|bcp|zip|unzip|redis-cli|keydb-cli|ldapsearch|ldapadd|ldapmodify|ldapdelete)\b[^\n]*?[ \t]-(?:p|P|a|w)(?:[ \t]+|=)(?!-)${ARG}`, 'g'),
    needs: ['sshpass', 'mongo', 'sqlcmd', 'bcp', 'zip', 'redis-cli', 'keydb-cli', 'ldap'],
    anyWord: true,
  },
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:7z|7za|7zr|rar|unrar)\b[^\n]*?[ \t]-p(?!-)${ARG}`, 'g'), needs: ['7z', 'rar'], anyWord: true },
  // Single-dash password options of Java and OpenSSL tools: -storepass X, -keypass X, -passin pass:X, -passout pass:X.
  { kind: 'password', pattern: new RegExp(String.raw`(?<![\w-])-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|passphrase|password|passwd|pass)(?:[ \t]+|=)(?!-)(?:pass:)?${ARG}`, 'gi'), needs: ['pass'], anyWord: true },
  { kind: 'password', pattern: new RegExp(String.raw`-pass(?:in|out)[ \t]+pass:${ARG}`, 'g'), needs: ['pass:'], anyWord: true },
  // smbclient -U user%password.
  { kind: 'password', pattern: /[ \t]-U[ \t]+["']?[^\s%'"]+%([^\s'"]+)/g, needs: ['%'], anyWord: true },
  // `echo PW | tool --password-stdin`, `printf '%s' PW | ...`, `... --password-stdin <<< PW`.
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)*(?:(?:"%s\\?n?"|'%s\\?n?')[ \t]+)?${ARG}[ \t]*\|[^\n]*--password-stdin`, 'g'), needs: ['password-stdin'], anyWord: true },
  { kind: 'password', pattern: new RegExp(String.raw`--password-stdin[^\n]*?<<<[ \t]*${ARG}`, 'g'), needs: ['password-stdin'], anyWord: true },
  { kind: 'password', pattern: new RegExp(String.raw`<<<[ \t]*${ARG}[^\n]*--password-stdin`, 'g'), needs: ['password-stdin'], anyWord: true },
  // SQL: IDENTIFIED BY 'pw', IDENTIFIED WITH plugin BY 'pw', [WITH] PASSWORD 'pw', PASSWORD('pw'), PASSWORD = 'pw'.
  { kind: 'password', pattern: /\bIDENTIFIED[ \t]+(?:WITH[ \t]+\S+[ \t]+)?BY[ \t]+(?:PASSWORD[ \t]+)?("[^"\n]+"|'[^'\n]+'|[^\s;'"]+)/gi, needs: ['identified'], anyWord: true },
  // PASSWORD as a SQL word, not a quoted key (`"password": "..."` is an assignment).
  { kind: 'password', pattern: /\b(?:WITH|LOGIN|ENCRYPTED|UNENCRYPTED|USER|ROLE)\b[^\n;]*?(?<!["'\w])PASSWORD(?![\w"'])[ \t]*(?:=[ \t]*)?\(?[ \t]*("[^"\n:,{}]+"|'[^'\n:,{}]+')/gi, needs: ['password'], anyWord: true },
  // JDBC / Oracle style user/password@host.
  { kind: 'password', pattern: /\bjdbc:[a-z0-9]+:(?:[a-z0-9]+:)*(?:\/\/)?[^\s/:@'"]+\/([^\s@'"]+)@/gi, needs: ['jdbc:'], anyWord: true },
  { kind: 'password', pattern: /\b(?:sqlplus|rman|expdp|impdp|exp|imp|sqlldr)[ \t]+(?:-\w+[ \t]+)*["']?[\w$#]+\/([^\s@'"]+)(?:@|["']?(?:\s|$))/g, needs: ['sqlplus', 'rman', 'exp', 'imp', 'sqlldr'], anyWord: true },
];

/** `Cookie: a=1; session=xyz`, `Set-Cookie: sid=xyz; Path=/`, `curl -b 'sid=xyz'`, `--cookie "sid=xyz"`. */
const COOKIE_HEADER = /\b(Set-Cookie|Cookie)([ \t]*:[ \t]*)([^\n\r"']+)/gi;
const COOKIE_FLAG = /(?:[ \t]-b|--cookie)(?:[ \t]+|=)(["'])([^"'\n]+)\1/g;
/** Attributes of Set-Cookie, not cookies. */
const COOKIE_ATTRIBUTES = new Set(['path', 'domain', 'expires', 'max-age', 'samesite', 'secure', 'httponly', 'priority', 'partitioned', 'version', 'comment']);

/** htpasswd with -b: the password is the last of `[file] user password`. */
const HTPASSWD = /\bhtpasswd((?:[ \t]+[^\s|;&]+)+)/g;

const RULE_NEEDS = RULES.flatMap((rule) => rule.needs);
/** The rules' needed words, then the words of the steps after them. */
const NEEDS = literalIndex([...RULE_NEEDS, 'htpasswd', 'cookie']);
const NEED_RULE = RULES.flatMap((rule, i) => rule.needs.map(() => i));
const HTPASSWD_WORD = RULE_NEEDS.length;
const COOKIE_WORD = RULE_NEEDS.length + 1;

function unquoted(value: string): string {
  return value.replace(/^(["'])(.*)\1$/s, '$2');
}

function isSecret(value: string, anyWord: boolean): boolean {
  const bare = unquoted(value);
  if (bare === '' || isReferenceOrPlaceholder(bare) || bare.startsWith('-')) return false;
  if (/^(?:\$|`)/.test(bare) || bare === '%s') return false;
  return anyWord || !isPlainWord(bare);
}

function redactCookiePairs(pairs: string, setCookie: boolean, count: { n: number }): string {
  let first = true;
  return pairs.replace(/([^\s;=]+)[ \t]*=[ \t]*([^;\s]*)/g, (pair: string, name: string, value: string) => {
    const isAttribute = setCookie && !first && COOKIE_ATTRIBUTES.has(name.toLowerCase());
    first = false;
    if (isAttribute || value === '' || value.includes('[REDACTED:') || isReferenceOrPlaceholder(value) || /^\d{1,6}$/.test(value) || isPlainWord(value)) return pair;
    count.n += 1;
    return `${name}=${redactionMarker('cookie')}`;
  });
}

export function redactCommands(text: string): { text: string; count: number } {
  let out = text;
  let count = 0;
  const words = NEEDS.found(text);
  const wanted = new Set([...words].map((k) => NEED_RULE[k]));
  for (const [i, rule] of RULES.entries()) {
    if (!wanted.has(i)) continue;
    out = out.replace(rule.pattern, (match: string, secret: string | undefined) => {
      if (secret === undefined || secret.includes('[REDACTED:') || !isSecret(secret, rule.anyWord ?? false)) return match;
      const at = match.lastIndexOf(secret);
      count += 1;
      const quote = /^["']/.test(secret) ? secret[0] : '';
      return `${match.slice(0, at)}${quote}${redactionMarker(rule.kind)}${quote}${match.slice(at + secret.length)}`;
    });
  }
  if (words.has(HTPASSWD_WORD)) {
    out = out.replace(HTPASSWD, (match: string, args: string) => {
      const words = args.trim().split(/[ \t]+/);
      // -b (batch: the password is on the command line), alone or among other letters (-bc, -cbB).
      const flags = words.filter((w) => w.startsWith('-')).join('');
      if (!flags.includes('b')) return match;
      const plain = words.filter((w) => !w.startsWith('-'));
      const secret = plain[plain.length - 1];
      const enough = plain.length >= (/n/.test(flags) ? 2 : 3);
      if (!enough || secret === undefined || !isSecret(secret, true) || secret.includes('[REDACTED:')) return match;
      count += 1;
      const at = match.lastIndexOf(secret);
      return `${match.slice(0, at)}${redactionMarker('password')}${match.slice(at + secret.length)}`;
    });
  }
  if (words.has(COOKIE_WORD)) {
    const n = { n: 0 };
    out = out.replace(COOKIE_HEADER, (_m: string, name: string, sep: string, pairs: string) => `${name}${sep}${redactCookiePairs(pairs, name.toLowerCase() === 'set-cookie', n)}`);
    count += n.n;
  }
  if (out.includes('-b') || words.has(COOKIE_WORD)) {
    const n = { n: 0 };
    out = out.replace(COOKIE_FLAG, (_m: string, q: string, pairs: string) => _m.replace(`${q}${pairs}${q}`, `${q}${redactCookiePairs(pairs, false, n)}${q}`));
    count += n.n;
  }
  return { text: out, count };
}
