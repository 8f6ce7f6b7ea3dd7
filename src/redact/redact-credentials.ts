/**
 * Credentials in command lines and credential files, and headers that carry them: `mysql -pX`,
 * `--password X`, `curl -u user:pass`, `sshpass -p X`, `.netrc` (`machine h login u password p`),
 * `.pgpass` (`host:port:db:user:pass`), docker `config.json` (`"auth": "<base64>"`),
 * `Authorization: Basic <base64>`, Azure connection strings (`AccountKey=`, `SharedAccessKey=`) and
 * SAS signatures (`sig=`). Each keeps what names the credential and replaces the secret. Pure.
 */
import { redactionMarker } from './redact-blocks.js';
import { isReferenceOrPlaceholder } from './judge-value.js';
import { literalIndex } from './combined-pattern.js';

interface CredentialRule {
  kind: string;
  /** Group 1 is the secret. */
  pattern: RegExp;
  /** Every match holds one of these (lower-case): a text holding none is not searched. */
  needs: readonly string[];
  /** Extra test of the secret (the default: not a reference or placeholder). */
  accept?: (secret: string) => boolean;
}

const RULES: readonly CredentialRule[] = [
  // mysql/mariadb/mysqldump -pSECRET (the password is glued to -p).
  { kind: 'password', pattern: /\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]*?[ \t]-p(?!assword)([^\s'"]+|'[^'\n]+'|"[^"\n]+")/g, needs: ['mysql', 'mariadb'] },
  // --password X / --password=X / --token X / --api-key X and the like, and -P for some clients.
  {
    kind: 'password',
    pattern: /(?<![\w-])--(?:password|passwd|pass|db-password|token|auth-token|access-token|api-key|apikey|secret|client-secret|private-key-passphrase)(?:[ \t]+|=)(?!-)("[^"\n]+"|'[^'\n]+'|[^\s'"]+)/gi,
    needs: ['--'],
  },
  { kind: 'password', pattern: /\bsshpass\b[^\n]*?[ \t]-p[ \t]*("[^"\n]+"|'[^'\n]+'|[^\s'"]+)/g, needs: ['sshpass'] },
  // curl -u user:pass / --user user:pass: the user stays.
  {
    kind: 'password',
    pattern: /(?:[ \t]-u|--user)(?:[ \t]+|=)["']?[^\s:'"]+:([^\s'"]+)/g,
    needs: ['-u', '--user'],
    accept: (s) => !/^\d+$/.test(s) && !isReferenceOrPlaceholder(s),
  },
  // .netrc
  { kind: 'password', pattern: /\blogin[ \t]+\S+[ \t\n]+password[ \t]+(\S+)/g, needs: ['login'] },
  { kind: 'password', pattern: /\bmachine[ \t]+\S+[ \t\n]+password[ \t]+(\S+)/g, needs: ['machine'] },
  // .pgpass: host:port:database:user:password, one per line.
  { kind: 'password', pattern: /^[ \t]*[\w.*-]+:(?:\d{1,5}|\*):[\w.*-]+:[\w.*@-]+:(\S+)[ \t]*$/gm, needs: [':'], accept: (s) => s.length >= 4 && !/^[0-9a-f]+$/i.test(s) },
  // docker config.json auths and npm/yarn `_auth`.
  { kind: 'docker-auth', pattern: /"(?:auth|_auth|identitytoken|registrytoken)"\s*:\s*"([A-Za-z0-9+/=_.-]{8,})"/gi, needs: ['auth', 'token'] },
  { kind: 'npm-auth', pattern: /(?:^|[\s:])(?:\/\/[^\s=]+:)?_(?:auth|authToken|password)\s*=\s*(\S+)/gm, needs: ['_auth', '_password'] },
  // Authorization: Basic <base64 of user:pass>; the token must decode to a user and a password.
  { kind: 'basic-auth', pattern: /\bBasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g, needs: ['basic'], accept: decodesToUserAndPassword },
  { kind: 'auth-token', pattern: /\bAuthorization:[ \t]*(?:Token|token|Bot|ApiKey|Digest|AWS4-HMAC-SHA256)[ \t]+([^\s'"]{12,})/g, needs: ['authorization'] },
  { kind: 'auth-token', pattern: /\b(?:X-Api-Key|X-Auth-Token|Api-Key|X-Access-Token|PRIVATE-TOKEN|X-Vault-Token)[ \t]*:[ \t]*["']?([^\s'"]{8,})/gi, needs: ['key', 'token'] },
  // Azure: connection strings and SAS tokens.
  { kind: 'azure-key', pattern: /\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|Password|Pwd)=([^;'"\s]{6,})/g, needs: ['key=', 'signature=', 'password=', 'pwd='] },
  { kind: 'azure-sas', pattern: /[?&]sig=([A-Za-z0-9%+/=]{16,})/g, needs: ['sig='] },
];

function decodesToUserAndPassword(token: string): boolean {
  const decoded = Buffer.from(token, 'base64').toString('latin1');
  return /^[\x20-\x7e]{1,200}:[\x20-\x7e]{1,200}$/.test(decoded);
}

/** Every rule's needed words in one pattern, each standing for its rule. */
const NEEDS = literalIndex(RULES.flatMap((rule) => rule.needs));
const NEED_RULE = RULES.flatMap((rule, i) => rule.needs.map(() => i));

export function redactCredentials(text: string): { text: string; count: number } {
  let out = text;
  let count = 0;
  const wanted = new Set([...NEEDS.found(text)].map((k) => NEED_RULE[k]));
  for (const [i, rule] of RULES.entries()) {
    // A rule not wanted by the text as it came holds none of its words: redactions only take words away.
    if (!wanted.has(i)) continue;
    out = out.replace(rule.pattern, (match: string, secret: string | undefined) => {
      if (secret === undefined || secret === '') return match;
      const bare = secret.replace(/^["']|["']$/g, '');
      if (isReferenceOrPlaceholder(bare) || !(rule.accept?.(bare) ?? true)) return match;
      const at = match.lastIndexOf(secret);
      count += 1;
      return `${match.slice(0, at)}${redactionMarker(rule.kind)}${match.slice(at + secret.length)}`;
    });
  }
  return { text: out, count };
}
