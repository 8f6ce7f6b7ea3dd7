/**
 * Secrets of the classes redaction must cover, each with a fresh random value per test run (so no rule can
 * be tuned to a fixed string), and look-alikes of the same shapes that are not secrets.
 */
import { randomInt } from 'node:crypto';
import type { LookalikeCase, SecretCase } from './redaction-corpus.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random characters of `alphabet`, with at least one digit, one upper- and one lower-case letter when it has them. */
export function randomToken(n: number, alphabet = ALNUM): string {
  for (;;) {
    const s = Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
    if (!/[0-9]/.test(alphabet) || (/\d/.test(s) && (!/[A-Z]/.test(alphabet) || /[A-Z]/.test(s)) && (!/[a-z]/.test(alphabet) || /[a-z]/.test(s)))) return s;
  }
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

export function freshSecrets(): SecretCase[] {
  const pw = (): string => randomToken(14);
  const cases: SecretCase[] = [];
  const add = (kind: string, build: (v: string) => string, value = pw()): void => {
    cases.push({ kind, text: build(value), secrets: [value] });
  };
  // Command lines.
  add('docker-login-p', (v) => `docker login -u ci -p ${v} registry.example.com`);
  add('podman-login-password', (v) => `podman login --username ci --password ${v} quay.io`);
  add('password-stdin-echo', (v) => `echo "${v}" | docker login --password-stdin -u ci ghcr.io`);
  add('password-stdin-printf', (v) => `printf '%s' '${v}' | helm registry login --password-stdin -u ci reg.io`);
  add('password-stdin-herestring', (v) => `docker login ghcr.io -u ci --password-stdin <<< '${v}'`);
  add('htpasswd-b', (v) => `htpasswd -b -c /etc/nginx/.htpasswd admin ${v}`);
  add('htpasswd-bc', (v) => `sudo htpasswd -cbB ./auth/htpasswd deploy ${v}`);
  add('redis-cli-a', (v) => `redis-cli -h cache.internal -a ${v} INFO`);
  add('keytool-storepass', (v) => `keytool -list -keystore app.jks -storepass ${v}`);
  add('openssl-passout', (v) => `openssl pkcs12 -export -in c.pem -inkey k.pem -passout pass:${v} -out c.p12`);
  add('sqlcmd-P', (v) => `sqlcmd -S db.internal -U sa -P '${v}' -Q "SELECT 1"`);
  add('curl-token-flag', (v) => `gh api --token=${v} /user`);
  // Key material in YAML/JSON/INI values.
  const key = `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI${randomToken(40)}\n${randomToken(64)}\n-----END EC PRIVATE KEY-----\n`;
  cases.push({ kind: 'kubeconfig-client-key-data', text: `users:\n- name: admin\n  user:\n    client-key-data: ${b64(key)}\n`, secrets: [b64(key).slice(20, 60)] });
  cases.push({ kind: 'json-key-data', text: `{"tls": {"key-data": "${b64(key)}"}}`, secrets: [b64(key).slice(20, 60)] });
  cases.push({ kind: 'ini-private-key', text: `[signing]\nprivate_key = ${b64(key)}\n`, secrets: [b64(key).slice(20, 60)] });
  // CSV exports.
  const secret40 = randomToken(40, `${ALNUM}/+`);
  cases.push({
    kind: 'aws-console-csv',
    text: `User name,Password,Access key ID,Secret access key,Console login link\nci-bot,${pw()}x!,AKIA${randomToken(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')},${secret40},https://123456789012.signin.aws.amazon.com/console`,
    secrets: [secret40],
  });
  const csvPw = pw();
  cases.push({ kind: 'password-manager-csv', text: `name,url,username,password\ngithub,https://github.com,jo,${csvPw}\n`, secrets: [csvPw] });
  // Names by their parts, in every format.
  const names = ['APP_KEY', 'HMAC_KEY', 'JWT_KEY', 'DD_APP_KEY', 'PGPASS', 'TOTP_SEED', 'APP_SIGNING_SALT', 'SESSION_SECRET', 'COOKIE_SECRET', 'AUTH_SECRET', 'DB_PWD', 'MYSQL_ROOT_PASSWORD', 'SMTP_PASS', 'CREDENTIALS_KEY', 'NEXTAUTH_SECRET', 'ENCRYPTION_KEY', 'signingKey', 'hmacSecret', 'db.password', 'session-key'];
  for (const [i, name] of names.entries()) {
    const format = i % 6;
    add(`name-${name}`, (v) => [`${name}=${v}`, `export ${name}="${v}"`, `${name}: ${v}`, `{"${name}": "${v}"}`, `${name} = "${v}"`, `declare -x ${name}="${v}"`][format] as string, randomToken(24));
  }
  add('sentry-dsn', (v) => `SENTRY_DSN=https://${v}@o123456.ingest.sentry.io/4504`, randomToken(32, '0123456789abcdef'));
  add('printenv-dump', (v) => `HOME=/home/dev\nPATH=/usr/bin:/bin\nSTRIPE_SIGNING_SECRET=${v}\nLANG=C.UTF-8`, randomToken(30));
  // Encoded and escaped.
  add('percent-encoded-url', (v) => `DATABASE_URL=postgres%3A%2F%2Fadmin%3A${v}%40db.internal%3A5432%2Fapp`);
  add('percent-encoded-form', (v) => `POST /login body=user%3Dbob%26password%3D${v}%26remember%3D1`);
  add('unicode-escaped-json', (v) => `{\\u0022password\\u0022: \\u0022${v}\\u0022}`);
  add('double-escaped-json', (v) => `"payload": "{\\\\\\"db_password\\\\\\": \\\\\\"${v}\\\\\\"}"`);
  const gh = `ghp_${randomToken(36)}`;
  cases.push({ kind: 'base64-github-token', text: `token blob: ${b64(gh)}`, secrets: [b64(gh).slice(8, 40)] });
  const ant = `sk-ant-api03-${randomToken(60)}`;
  const hexAnt = Buffer.from(ant).toString('hex');
  cases.push({ kind: 'hex-anthropic-key', text: `payload ${hexAnt}`, secrets: [hexAnt.slice(30, 90)] });
  // Connection strings and SQL.
  add('jdbc-oracle', (v) => `jdbc:oracle:thin:scott/${v}@db.example.com:1521/ORCL`);
  add('jdbc-sqlserver', (v) => `jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=${v};encrypt=true`);
  add('odbc', (v) => `Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Uid=app;Pwd=${v};Encrypt=yes;`);
  add('azure-storage', (v) => `DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${v};EndpointSuffix=core.windows.net`, `${randomToken(86, `${ALNUM}+/`)}==`);
  add('sql-identified-by', (v) => `CREATE USER app IDENTIFIED BY '${v}';`);
  add('sql-with-password', (v) => `CREATE ROLE app WITH LOGIN PASSWORD '${v}';`);
  add('mysql-identified-with', (v) => `ALTER USER 'app'@'%' IDENTIFIED WITH caching_sha2_password BY '${v}';`);
  // Cookies.
  add('cookie-header', (v) => `Cookie: theme=dark; sessionid=${v}; lang=en`, randomToken(32));
  add('set-cookie-header', (v) => `Set-Cookie: __Host-sid=${v}; Path=/; Secure; HttpOnly; SameSite=Lax`, randomToken(32));
  add('curl-cookie', (v) => `curl --cookie "connect.sid=${v}" https://app.example.com/api`, randomToken(32));
  // YAML block scalars.
  add('yaml-block-password', (v) => `db:\n  password: >-\n    ${v}\n  host: db.internal\n`);
  add('yaml-block-secret', (v) => `stringData:\n  api_secret: |\n    ${v}\n`);
  return cases;
}

/** Look-alikes of the same shapes: defaults, numbers, paths, words, ids, flags that take no secret. */
export const FRESH_LOOKALIKES: LookalikeCase[] = [
  { kind: 'postgres-default', text: 'POSTGRES_PASSWORD=postgres' },
  { kind: 'changeme', text: 'ADMIN_PASSWORD=changeme' },
  { kind: 'token-count', text: 'token: 512' },
  { kind: 'vault-path', text: 'secret: kv/data/shop/prod' },
  { kind: 'token-the', text: 'the token: "the"' },
  { kind: 'sort-key', text: 'sort_key: created_at' },
  { kind: 'primary-key', text: 'primary_key: id' },
  { kind: 'cache-key', text: 'cache_key=user:42' },
  { kind: 'seed-number', text: 'RANDOM_SEED=42' },
  { kind: 'session-timeout', text: 'SESSION_TIMEOUT=3600' },
  { kind: 'cookie-flags', text: 'Cookie: theme=dark; lang=en' },
  { kind: 'mkdir-p', text: 'mkdir -p src/components/forms' },
  { kind: 'docker-run-p', text: 'docker run -p 8080:80 -p 443:443 nginx' },
  { kind: 'psql-p', text: 'psql -h db.internal -p 5432 -U app -d shop' },
  { kind: 'url-encoded-search', text: 'GET /search?q=hello%20world%21&lang=en 200' },
  { kind: 'sri-hash', text: 'integrity="sha512-lBRIGe3EIjLAM1uyugq94lxmxjc2p6aBg0HDtqUKS4ZKLFw+jzQ0xmY2ScSy/5Eg=="' },
  { kind: 'csv-without-secrets', text: 'User name,Access key ID,Created\nci-bot,AKIA-rotated,2026-01-01' },
  { kind: 'yaml-block-description', text: 'description: |\n  The service account for deploy token rotation.\n  Rotated monthly.' },
  { kind: 'sql-select', text: "SELECT id FROM users WHERE password_reset = true AND identified_by = 'staff';" },
  { kind: 'auth-type', text: 'auth: basic' },
  { kind: 'session-uuid', text: 'session_id: 3f2b8c1e-9d4a-4e7b-8c2d-1a5f6e7d8c9b' },
  { kind: 'key-path', text: 'SSH_KEY=~/.ssh/id_ed25519' },
  { kind: 'env-reference', text: 'echo "$REGISTRY_PASSWORD" | docker login --password-stdin -u ci ghcr.io' },
  { kind: 'iam-description', text: '"Description": "Allows the CI user to rotate its own access keys and session tokens"' },
  // Placeholder values: words, a default, a number, a path.
  { kind: 'pw-words', text: 'Pw: hello world' },
  { kind: 'password-phrase-prose', text: 'password: my secret phrase' },
  { kind: 'pass-prose', text: 'Pass: the build' },
  { kind: 'password-quoted-words', text: 'password = "Hello World"' },
  { kind: 'pin-number', text: 'PIN: 1234' },
  { kind: 'pwd-path', text: 'pwd: /home/user/app' },
  { kind: 'pw-postgres', text: 'Pw: postgres' },
];
