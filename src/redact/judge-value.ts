/**
 * Whether a value found after a secret-ish key is a secret: references to a secret kept elsewhere,
 * placeholders, file paths, type names and code are not. Pure.
 *
 * Placeholders stay: `changeme`, `your-token-here`, `<token>`, `xxx`, `***`, `example` and the like
 * are the documented defaults of sample configs; replacing them hides nothing and makes a note about
 * a config harder to read. A real secret that happens to be one of these words is not protected.
 */

/** Values that name a type or a literal, or are common placeholders. */
const NON_SECRET_WORDS = new Set([
  'string', 'number', 'boolean', 'bool', 'null', 'nil', 'none', 'undefined', 'true', 'false', 'any',
  'unknown', 'void', 'str', 'int', 'bytes', 'optional', 'required', 'empty', 'redacted', 'hidden',
  'changeme', 'change-me', 'change_me', 'changeit', 'placeholder', 'example', 'sample', 'dummy', 'todo',
  'tbd', 'fixme', 'replaceme', 'replace-me', 'replace_me', 'secret', 'password', 'token', 'n/a', 'na',
  'env', 'environment', 'input', 'prompt', 'stdin', 'default', 'off', 'on', 'yes', 'no', 'disabled',
]);

/** First segments of a dotted name that reads a setting rather than holds one. */
const SETTING_ROOTS = new Set([
  'process', 'settings', 'config', 'conf', 'cfg', 'configuration', 'options', 'opts', 'env', 'environ',
  'os', 'secrets', 'vars', 'self', 'this', 'import', 'window', 'app', 'ctx', 'context', 'args', 'argv',
  'params', 'props', 'credentials', 'creds', 'keys', 'vault', 'deno', 'bun', 'system', 'request', 'req',
]);

const PLACEHOLDER_SHAPE =
  /^(?:(?:your|insert|enter|put|replace|example|sample|dummy|fake|placeholder)[-_ .].*|.*[-_ ](?:here|goes[-_ ]here|placeholder|example))$/i;

/** A reference to a secret kept elsewhere, a placeholder, a value already redacted, or a type name. */
export function isReferenceOrPlaceholder(raw: string): boolean {
  const value = raw.trim();
  if (value === '') return true;
  if (value.startsWith('[REDACTED:')) return true;
  if (/^\$\w+$/.test(value) || /^\$\{.*\}$/.test(value) || /^\$\(.*\)$/.test(value)) return true; // $X ${X:-} ${{ secrets.X }} $(cmd)
  if (/^(?:vault|ssm|awssm|gcpsm|azkv|op|env|file|secretsmanager|arn:aws:[\w-]+):/i.test(value)) return true; // secret manager references
  if (/(?:\.{3}|…)$/.test(value) && value.length <= 12) return true; // `sk-...`: a shape, not a value
  if (/^\{\{.*\}\}$/.test(value) || /^%\w+%$/.test(value) || /^@\w+@$/.test(value)) return true; // templates
  if (/^<[^<>]*>$/.test(value) || /^\[[^[\]]*\]$/.test(value) || /^\{[^{}]*\}$/.test(value)) return true; // <token> [token] {token}
  if (/^(?:\*+|x+|\.{3,}|…|-+|_+|#+|0+)$/i.test(value)) return true;
  if (/^(?:[~^]|[<>]=?|=)?v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$/.test(value)) return true; // a version or a version range
  if (/^<[^<>]{1,40}>/.test(value)) return true; // `<your key>` and what follows it in a sentence
  if (NON_SECRET_WORDS.has(value.toLowerCase())) return true;
  if (PLACEHOLDER_SHAPE.test(value)) return true;
  return isSettingReference(value) || isFilePath(value) || isStorePath(value);
}

/** A path in a secret store or a config tree (`kv/data/shop/prod`, `secret/app/db`): lower-case words between slashes. */
export function isStorePath(value: string): boolean {
  return /^[a-z][a-z0-9_.-]{0,40}(?:\/[a-z0-9_.-]{1,40}){1,12}\/?$/.test(value) && !/\d[a-z]|[a-z]\d/.test(value.replace(/[-_.]v?\d+\b/g, ''));
}

/** One plain word (`postgres`, `the`, `Admin`): a default or a word in a sentence, not a secret. */
export function isPlainWord(value: string): boolean {
  return /^(?:[a-z]{1,12}|[A-Z][a-z]{1,11})$/.test(value.trim());
}

/**
 * A few plain words (`hello world`, `the build`, `my secret phrase`): prose or a placeholder, not a secret.
 * Up to three words: a passphrase of four or more (`correct horse battery staple`) still counts as one.
 */
export function isPlainPhrase(value: string): boolean {
  return /^(?:[a-z]{1,12}|[A-Z][a-z]{1,11})(?: (?:[a-z]{1,12}|[A-Z][a-z]{1,11})){0,2}$/.test(value.trim());
}

/** `process.env.X`, `settings.STRIPE_KEY`, `os.environ["X"]`, `os.getenv('X')`, `ENV['X']`, `config.api.key`. */
export function isSettingReference(value: string): boolean {
  if (/^(?:os\.)?(?:environ|getenv|env|ENV)\b/.test(value)) return true;
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[["'][\w.-]+["']\]|\(["'][\w.-]+["'](?:,[^)]*)?\))+$/.test(value)) {
    const root = (value.split(/[.[(]/)[0] ?? '').toLowerCase();
    const last = value.split(/[.[(]/).pop() ?? '';
    if (SETTING_ROOTS.has(root)) return true;
    if (/^["']?[A-Z][A-Z0-9_]*["']?[\])]?$/.test(last)) return true; // ...STRIPE_KEY, ["API_KEY"]
    if (/[[(]/.test(value)) return true;
  }
  return false;
}

/** `./certs/dev.key`, `~/.ssh/id_ed25519`, `/run/secrets/db`, `C:\keys\a.pem`, `secrets/token.txt`. */
export function isFilePath(value: string): boolean {
  if (/\s/.test(value)) return false;
  if (/^(?:\.{1,2}\/|~\/|\/[\w.-]+\/|[A-Za-z]:\\)/.test(value)) return true;
  return /^[\w./-]*\.(?:key|pem|crt|cer|der|p12|pfx|json|txt|env|ya?ml|jks|keystore|gpg|asc|pub|ppk)$/i.test(value);
}

/** An unquoted value (after `key: ` or `key = `) that reads as code or prose rather than a credential. */
export function looksLikeCodeOrProse(value: string): boolean {
  if (/[()<>{}[\]]/.test(value)) return true; // calls, generics, literals
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value)) return true; // config.token
  if (/^[a-z]+(?:[A-Z][a-z]*)+$/.test(value)) return true; // csrfToken, getToken
  if (/^\d{1,5}$/.test(value)) return true; // counts, limits, ports
  // A plain short word ("Password: required", "token: expired") is prose; real values mix in
  // digits or symbols, or are long.
  return /^[A-Za-z]+$/.test(value) && value.length < 12;
}
