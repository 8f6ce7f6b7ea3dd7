/**
 * Whether a name (a variable, a YAML or JSON key, an INI key, a CSV header) names a secret, read by its
 * parts whatever the separator or case: `DB_PASSWORD`, `dbPassword`, `db.password`, `PGPASS`,
 * `HMAC_KEY`, `jwtKey`, `TOTP_SEED`, `APP_SIGNING_SALT`, `SENTRY_DSN`, `SESSION_COOKIE`. Pure.
 *
 * Strong names (password, secret, token, API key...) hold a secret unless the value is a reference or
 * a placeholder. Weak names (key, salt, seed, DSN, cookie, session, auth) are also everyday words
 * (`sort_key`, `primary_key`, `seed: 42`): they hold a secret only when the value looks like one
 * (see `looksLikeSecretValue`).
 */

export type NameStrength = 'strong' | 'weak';

/** Endings that still name the secret itself (`SECRET_KEY_BASE`, `password_hash`, `TOKEN_B64`). */
const SUFFIXES = new Set(['base', 'value', 'b64', 'base64', 'plain', 'plaintext', 'raw', 'str', 'hash', 'salt', 'v1', 'v2', 'v3', 'data']);

const STRONG = new Set([
  'password', 'passwd', 'passphrase', 'passcode', 'pass', 'pwd', 'pw', 'pin', 'secret', 'secrets', 'token',
  'credential', 'credentials', 'creds', 'apikey', 'privatekey', 'secretkey', 'accesskey',
]);

/** Parts that make a following `key` a secret's (`api_key`, `private-key`, `hmacKey`). */
const KEY_OWNERS = new Set([
  'api', 'private', 'secret', 'access', 'signing', 'sign', 'encryption', 'enc', 'master', 'client', 'hmac', 'jwt', 'app',
  'license', 'licence', 'crypt', 'crypto', 'cipher', 'aes', 'rsa', 'ssh', 'gpg', 'pgp', 'deploy', 'service', 'account',
  'storage', 'shared', 'session', 'auth', 'webhook', 'admin', 'root', 'write', 'read', 'publishable', 'restricted',
]);

const WEAK = new Set(['key', 'keys', 'auth', 'salt', 'seed', 'dsn', 'cookie', 'cookies', 'session', 'sig', 'signature']);

/** Words ending in `pass` that are no password. */
const NOT_PASS = new Set(['bypass', 'compass', 'surpass', 'overpass', 'underpass', 'encompass', 'trespass', 'impass', 'multipass', 'onepass']);

/** A name's parts, lower-cased: split at `_`, `-`, `.`, spaces and camelCase humps (`dbPassword` -> db, password). */
export function nameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.\-/:[\]"'`]+/)
    .filter((p) => p !== '');
}

/** How strongly `name` names a secret, or undefined when it does not. */
export function secretNameStrength(name: string): NameStrength | undefined {
  const parts = nameParts(name);
  const own = strengthOf(parts);
  if (own === 'strong') return own;
  while (parts.length > 1 && SUFFIXES.has(parts[parts.length - 1] as string)) parts.pop();
  return strengthOf(parts) ?? own;
}

function strengthOf(parts: readonly string[]): NameStrength | undefined {
  const last = parts[parts.length - 1];
  if (last === undefined) return undefined;
  const before = parts[parts.length - 2];
  if (STRONG.has(last)) return 'strong';
  if (/(?:password|passwd|secret|token|credentials?)$/.test(last)) return 'strong';
  if (last.endsWith('pass') && !NOT_PASS.has(last)) return 'strong';
  if (last === 'key' || last === 'keys') return before !== undefined && KEY_OWNERS.has(before) ? 'strong' : 'weak';
  if (last.endsWith('key') && KEY_OWNERS.has(last.slice(0, -3))) return 'strong';
  if (WEAK.has(last)) return 'weak';
  if (/(?:salt|seed|dsn|cookie)$/.test(last) && last.length <= 12) return 'weak';
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run that reads as a random token: 12 or more token characters mixing letters and digits, or 16 or more mixing cases. */
const TOKEN_RUN = /[A-Za-z0-9+/=_.~-]{12,}/g;

/** What a weak name's value must look like to be a secret: a token, a URL with credentials, a `base64:` key. */
export function looksLikeSecretValue(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]{1,30}:\/\/[^\s/@]{3,}@/i.test(value)) return true; // a DSN: scheme://key[:secret]@host
  if (/^(?:base64|hex):\S{8,}/i.test(value)) return true;
  for (const [run] of value.matchAll(TOKEN_RUN)) {
    if (UUID.test(run)) continue; // an id (`idempotency_key: <uuid>`), not a key
    const letters = /[A-Za-z]/.test(run);
    if (letters && /\d/.test(run) && !/^\d+(?:\.\d+)*$/.test(run)) {
      // A version, a date, a path of words with a number (`v1.2.3-beta4`, `kv/data/app2`, `Stage2`) is no token;
      // letters that flip case inside a word (`cmmUzSKYDJfovfq9`) are.
      if (/^(?:[a-z]{1,15}|[A-Z]{1,15}|[A-Z][a-z]{1,14})(?:[._/-](?:[a-z]{1,15}|[A-Z]{1,15}|[A-Z][a-z]{1,14}))*[._/-]?\d{1,4}$/.test(run)) continue;
      return true;
    }
    // No digit: a random token still flips case often and has capitals side by side, unlike a camelCase name.
    if (letters && run.length >= 16 && caseFlips(run) >= 5 && /[A-Z]{2}/.test(run)) return true;
  }
  return false;
}

function caseFlips(run: string): number {
  let flips = 0;
  for (let i = 1; i < run.length; i += 1) if (/[a-z]/.test(run[i - 1] as string) && /[A-Z]/.test(run[i] as string)) flips += 1;
  return flips;
}
