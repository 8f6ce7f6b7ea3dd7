import { describe, it, expect } from 'vitest';
import { redactSecrets } from '../../../src/redact/redact-secrets.js';

// Fake credentials in the real shapes, assembled so no literal secret sits in the source.
const GITHUB_CLASSIC = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
const GITHUB_FINE = `github_pat_11ABCDEFG0123456789_${'abcdefghijklmnopqrstuvwxyz'.repeat(2)}0123456789`;
const GITLAB = `glpat-${'AbCdEfGhIj'.repeat(2)}`;
const SLACK = `xoxb-123456789012-1234567890123-${'AbCdEfGhIjKl'.repeat(2)}`;
const SLACK_HOOK = `https://hooks.slack.com/services/T00000000/B00000000/${'X'.repeat(24)}`;
const STRIPE = `sk_live_${'4eC39HqLyjWD'.repeat(2)}`;
const OPENAI = `sk-${'A1'.repeat(24)}`;
const OPENAI_PROJECT = `sk-proj-${'Abc123_def456-GHI789'.repeat(2)}`;
const ANTHROPIC = `sk-ant-api03-${'AbCdEf123456_GhIjKl-789'.repeat(2)}`;
const GOOGLE = `AIza${'SyA-1234567890abcdefghijklmnopqrstu'}`;
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEpAIBAAKCAQEA1234', 'abcdEFGH+/==', '-----END RSA PRIVATE KEY-----'].join('\n');

interface Case {
  family: string;
  input: string;
  expected: string;
}

const POSITIVE: Case[] = [
  { family: 'AWS access key ids', input: `key ${AWS_KEY_ID} set`, expected: 'key [REDACTED:aws-access-key] set' },
  { family: 'AWS temporary key ids', input: `ASIA${'Y'.repeat(16)}`, expected: '[REDACTED:aws-access-key]' },
  { family: 'AWS secret access keys', input: `aws_secret_access_key = ${AWS_SECRET}`, expected: 'aws_secret_access_key = [REDACTED:aws-secret]' },
  { family: 'GitHub classic tokens', input: `token ${GITHUB_CLASSIC} done`, expected: 'token [REDACTED:github-token] done' },
  { family: 'GitHub fine-grained tokens', input: `use ${GITHUB_FINE}`, expected: 'use [REDACTED:github-token]' },
  { family: 'GitLab tokens', input: `use ${GITLAB} here`, expected: 'use [REDACTED:gitlab-token] here' },
  { family: 'Slack tokens', input: `slack ${SLACK}`, expected: 'slack [REDACTED:slack-token]' },
  { family: 'Slack webhooks', input: `POST ${SLACK_HOOK} now`, expected: 'POST [REDACTED:slack-webhook] now' },
  { family: 'Stripe keys', input: `stripe ${STRIPE}.`, expected: 'stripe [REDACTED:stripe-key].' },
  { family: 'OpenAI keys', input: `key: ${OPENAI}`, expected: 'key: [REDACTED:openai-key]' },
  { family: 'OpenAI project keys', input: `(${OPENAI_PROJECT})`, expected: '([REDACTED:openai-key])' },
  { family: 'Anthropic keys', input: `ANTHROPIC ${ANTHROPIC}`, expected: 'ANTHROPIC [REDACTED:anthropic-key]' },
  { family: 'Google API keys', input: `google ${GOOGLE}`, expected: 'google [REDACTED:google-api-key]' },
  { family: 'JWTs', input: `Authorization: Bearer ${JWT}`, expected: 'Authorization: Bearer [REDACTED:jwt]' },
  { family: 'bearer tokens', input: 'Authorization: Bearer abcdef0123456789abcdef0123', expected: 'Authorization: Bearer [REDACTED:bearer-token]' },
  { family: 'PEM private keys', input: `before\n${PEM}\nafter`, expected: 'before\n[REDACTED:private-key]\nafter' },
  {
    family: 'URL passwords',
    input: 'DATABASE_URL=postgres://admin:s3cr3t@db.example.com:5432/app',
    expected: 'DATABASE_URL=postgres://admin:[REDACTED:password]@db.example.com:5432/app',
  },
  { family: 'password assignments', input: 'password=hunter2', expected: 'password=[REDACTED:password]' },
  { family: 'passwd labels', input: 'passwd: Tr0ub4dor&3', expected: 'passwd: [REDACTED:password]' },
  { family: 'quoted secrets', input: 'secret: "shh-its-a-secret"', expected: 'secret: "[REDACTED:secret]"' },
  { family: 'token assignments', input: 'token=abc.def.ghi', expected: 'token=[REDACTED:token]' },
  { family: 'api_key assignments', input: 'api_key=12345678abcd', expected: 'api_key=[REDACTED:api-key]' },
  { family: 'JSON passwords', input: '{"password": "correct horse battery staple"}', expected: '{"password": "[REDACTED:password]"}' },
  { family: 'exported env tokens', input: 'export API_TOKEN=abc123', expected: 'export API_TOKEN=[REDACTED:token]' },
  { family: 'code string secrets', input: "const clientSecret = 'xyz-987';", expected: "const clientSecret = '[REDACTED:secret]';" },
  { family: 'YAML passwords', input: 'DB_PASSWORD: p@ssw0rd!', expected: 'DB_PASSWORD: [REDACTED:password]' },
  { family: 'private spans', input: 'keep <private>my address\nline 2</PRIVATE> after', expected: 'keep [REDACTED:private] after' },
];

const NEGATIVE: Array<[string, string]> = [
  ['AWS prose', 'AKIA is the prefix of AWS access keys; AKIA1234 is too short.'],
  ['an AWS secret setting without a value', 'Set aws_secret_access_key in ~/.aws/credentials.'],
  ['GitHub prefixes', 'Classic tokens start with ghp_ and ghp_short is not one.'],
  ['GitLab prefixes', 'GitLab tokens look like glpat-short.'],
  ['Slack prefixes and hosts', 'Bot tokens start with xoxb- and hooks go to hooks.slack.com.'],
  ['Stripe prefixes', 'Use sk_live_ keys only in production; pk_test is public.'],
  ['words with sk-', 'risk-assessment-framework-document-v2 and sk-learn-without-digits-here'],
  ['Anthropic prefixes', 'Anthropic keys start with sk-ant-.'],
  ['Google prefixes', 'Google keys start with AIza and are 39 characters long.'],
  ['dotted words starting with eyJ', 'eyJ alone, or eyJhbGci.short is no token.'],
  ['public keys and certificates', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----'],
  ['URLs without credentials', 'git@github.com:org/repo.git and https://example.com:8080/path?user=me'],
  ['prose about passwords', 'The password field is required.'],
  ['a token read from a function', 'const token = getToken();'],
  ['type annotations', 'interface Login { password: string; token?: string }'],
  ['counters named after tokens', 'token_count: 5 and max_tokens=4096'],
  ['short prose after a label', 'The token: expired, and the secret: unknown.'],
  ['null assignments', 'let token = null;'],
  ['camelCase references', 'params: { _csrf_token: csrfToken }'],
  ['property paths', 'const apiKey = config.apiKey'],
  ['bearer prose', 'Bearer tokens are sent in the Authorization header.'],
  ['plural keys', 'secrets: inherit'],
  ['environment references', 'postgres://user:$PGPASSWORD@host/db and password=${DB_PASSWORD}'],
  ['placeholders', '"password": "<your password>" and token=***'],
];

describe('redactSecrets', () => {
  it.each(POSITIVE)('redacts $family', ({ input, expected }) => {
    expect(redactSecrets(input)).toEqual({ text: expected, count: 1 });
  });

  it.each(NEGATIVE)('leaves %s alone', (_name, input) => {
    expect(redactSecrets(input)).toEqual({ text: input, count: 0 });
  });

  it('leaves a key-name assignment alone when its value has no letter or digit', () => {
    expect(redactSecrets('pW:    ! ! !!')).toEqual({ text: 'pW:    ! ! !!', count: 0 });
    expect(redactSecrets('password: ---').count).toBe(0);
    expect(redactSecrets('password: hunter2!').count).toBe(1);
  });

  it('redacts every random token within reach of a secret word in one run, so a second run finds nothing more', () => {
    const once = redactSecrets('password AAAAaalZJ53mdc1ZOMDF: AAkxAAXqm6pfpassword');
    expect(once.text).toBe('password [REDACTED:secret]: [REDACTED:secret]');
    expect(redactSecrets(once.text)).toEqual({ text: once.text, count: 0 });
  });

  it('keeps the user and host of a URL with credentials', () => {
    const { text } = redactSecrets('git clone https://deploy:tok3n@git.example.com/team/repo.git');
    expect(text).toBe('git clone https://deploy:[REDACTED:password]@git.example.com/team/repo.git');
  });

  it('redacts the password of a URL whose scheme is glued to the text before it', () => {
    expect(redactSecrets('0123456789T0redis://:Sup3rS3cret!@cache:6379/0').text).toBe('0123456789T0redis://:[REDACTED:password]@cache:6379/0');
    expect(redactSecrets('log9postgres://app:pw4Secret@db/x').text).toBe('log9postgres://app:[REDACTED:password]@db/x');
  });

  it('takes a mixed-case run ending in one digit as a secret under a weak name, and a word with a number as none', () => {
    expect(redactSecrets('declare -x TOTP_SEED="cmmUzSKYDJfovfqPWzLlWsK9"').text).toBe('declare -x TOTP_SEED="[REDACTED:secret]"');
    for (const plain of ['TOTP_SEED=app2', 'SORT_KEY=Stage2', 'SESSION=kv/data/app2', 'DB_SALT=v1.2.3-beta4']) expect(redactSecrets(plain).text).toBe(plain);
  });

  it('redacts a token inside an env assignment once, under its own kind', () => {
    expect(redactSecrets(`GITHUB_TOKEN=${GITHUB_CLASSIC}`)).toEqual({ text: 'GITHUB_TOKEN=[REDACTED:github-token]', count: 1 });
  });

  it('keeps the closing bracket of a tool summary after an env assignment', () => {
    expect(redactSecrets('[tool Bash: export API_TOKEN=abc123]').text).toBe('[tool Bash: export API_TOKEN=[REDACTED:token]]');
  });

  it('redacts a private key cut off by the tool-result limit', () => {
    const cut = '  [result] -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n    NhAAAAAwEAAQAAAYEAx … [+2000 chars]\n  [tool Bash: ls]';
    expect(redactSecrets(cut)).toEqual({ text: '  [result] [REDACTED:private-key]\n  [tool Bash: ls]', count: 1 });
  });

  it('counts every secret it replaces', () => {
    const text = [
      `aws ${AWS_KEY_ID}`,
      `gh ${GITHUB_CLASSIC}`,
      `jwt ${JWT}`,
      'password=hunter2',
      PEM,
      '<private>x</private>',
      'The password field is required.',
    ].join('\n');
    expect(redactSecrets(text).count).toBe(6);
  });

  it('is idempotent: redacting twice equals redacting once and counts nothing new', () => {
    const text = [...POSITIVE.map((c) => c.input), ...NEGATIVE.map(([, input]) => input)].join('\n');
    const once = redactSecrets(text);
    const twice = redactSecrets(once.text);
    expect(once.count).toBe(POSITIVE.length);
    expect(twice).toEqual({ text: once.text, count: 0 });
  });

  it('returns empty text unchanged', () => {
    expect(redactSecrets('')).toEqual({ text: '', count: 0 });
  });
});

describe('redactSecrets speed', () => {
  const MB = 1_000_000;
  const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

  it('redacts a 1 MB transcript in well under a second', () => {
    const unit = [
      'User: the password field is required; const token = getToken();',
      `Assistant: set password=hunter2 and GITHUB_TOKEN=${GITHUB_CLASSIC}`,
      '  [tool Bash: curl https://deploy:p4ss@example.com/x]',
      `  [result] ${JWT} ok`,
      '',
    ].join('\n');
    const text = fill(unit);
    // Its speed is measured in bench/redaction.mjs; here, that it finishes (the test time-out) and redacts every unit.
    const { count } = redactSecrets(text);
    expect(count).toBeGreaterThan(1000);
  });

  it.each([
    ['one long word', 'a'.repeat(MB)],
    ['repeated eyJ runs', fill('eyJ-')],
    ['repeated JWT headers', fill('eyJaaaaaaaaaa.')],
    ['repeated password=', fill('password=')],
    ['a password of commas', `password=${','.repeat(MB)}`],
    ['unclosed private tags', fill('<private>')],
    ['PEM headers without ends', fill('-----BEGIN RSA PRIVATE KEY-----\n')],
    ['URL schemes without hosts', fill('https://user:')],
    ['sk- runs', fill('sk-')],
    ['identifier prefixes', fill('a-')],
    ['spaces after a key', `password${' '.repeat(MB)}`],
  ])('finishes on adversarial input, no pattern backtracking without end: %s', (_name, text) => {
    // A pattern that backtracks on 1 MB never finishes within the test time-out; speed itself is measured in bench/.
    expect(redactSecrets(text).text.length).toBeGreaterThan(0);
  });
});
