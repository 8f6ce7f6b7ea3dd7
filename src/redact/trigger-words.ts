/**
 * The triggers of the one-pass prefilter (find-windows.ts): lower-case literals and a few shapes that
 * every secret given by its context holds (a secret-ish name, a header, a command line, a URL with a user,
 * an encoded separator). Tokens known by their shape need no trigger here: they are long runs of token
 * characters that read as random, which find-windows.ts finds by its own scan. Searched by one automaton
 * (trigger-scan.ts), case folded as it reads.
 */
import { literalsPattern } from './combined-pattern.js';
import { GITLEAKS_RULES } from './gitleaks-rules.generated.js';
import { TOKEN_RULES } from './token-rules.js';

/** Words that mark a credential wherever they stand (a name, a sentence, a header, a SQL clause, a driver string). */
export const STRONG_WORDS = [
  'pass', 'pwd', 'secret', 'token', 'bearer', 'signature', 'sig=', 'identified', 'jdbc', 'odbc', 'uid=',
  'api key', 'api-key', 'apikey', 'access key', 'private key', 'credential', 'login',
  // The markers of the blocks redacted over the whole text (`kind: Secret` holds `secret`).
  '<private', 'putty-user-key-file-',
];

/** Prefixes of tokens that may be short (`xoxb-` and ten characters): found by name, not only as long runs. */
const TOKEN_PREFIXES = [
  'hooks.slack.com/', 'sk-', 'sk_', 'rk_', 'pk_', 'whsec_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-',
  'gldt-', 'glrt-', 'glptt-', 'glft-', 'glimt-', 'glcbt-', 'glsoat-', 'glagent-', 'gloas-', 'xox', 'aiza', 'akia', 'asia',
  'abia', 'acca', 'eyj', 'hf_', 'pypi-', 'npm_', 'sg.', 'shp', '_v1_', 'hvs.', 'hvb.', 'hvr.',
];

/**
 * Parts of a secret-ish name too common in plain text to mark one on their own (`session`, `key`): a
 * trigger only as part of a name that is given a value (`SESSION_KEY=`, `"auth": `, `Cookie: `,
 * `client-key-data: `, `TOTP_SEED=`).
 */
export const NAME_PARTS = ['key', 'auth', 'cred', 'salt', 'seed', 'dsn', 'cookie', 'session'];

/** Command lines that hand over a credential: `-p`/`-P` glued or apart, `-u user:pw`, `--some-key X`. */
const COMMAND_WORDS = [' -p', '\t-p', ' -u', ' -b', '--user', 'redis-cli', 'keydb-cli', 'sqlplus', 'smbclient', 'htpasswd'];

/** Encoded separators of an encoded credential: `%3a` `:`, `%40` `@`, `%3d` `=`, `\u003d` `=`. */
const ENCODED = ['%3a', '%40', '%3d', '\\u003d', '\\u0040'];

/** Name parts that mark a secret-ish name only when a value follows (`PW=`, `pin: `): checked at each hit. */
export const SHORT_PARTS = [...NAME_PARTS, 'pw', 'pin'];

/** Literals whose hit is a trigger as it stands. */
export const TRIGGER_LITERALS: readonly string[] = [...new Set([...STRONG_WORDS, ...TOKEN_PREFIXES, ...COMMAND_WORDS, ...ENCODED])];

/**
 * Prefixes of tokens known by their shape (recall's token rules and the vendored rules' keywords, three
 * characters or more): a long run holding one is a hit even when it does not read as random
 * (`sk-ant-AAAA...`). Searched in the lower-cased run.
 */
export const KNOWN_PREFIX = new RegExp(
  literalsPattern([...TOKEN_RULES.flatMap((rule) => rule.needs), ...GITLEAKS_RULES.rules.flatMap((rule) => rule.keywords)].map((k) => k.toLowerCase()).filter((k) => k.length >= 3)),
);
