/**
 * recall's own rules for tokens known by their shape, run before the vendored rule set: they keep
 * the kinds earlier versions wrote (`[REDACTED:github-token]`), and cover shapes the rule set finds
 * only next to a service's name (Mailgun `key-`, Discord bot tokens) or not at all. Every pattern
 * starts with a look-behind that forbids a preceding character of its own body class, so a match
 * can only start where a run of such characters starts (linear time).
 */
export interface TokenRule {
  kind: string;
  pattern: RegExp;
  /** Every match holds one of these: a text holding none of them is not searched (a string search is far cheaper). */
  needs: readonly string[];
}

/** Order matters where families overlap: Anthropic keys are also `sk-...`. */
export const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'slack-webhook', pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,300}/g, needs: ['hooks.slack.com/'] },
  { kind: 'anthropic-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,400}/g, needs: ['sk-ant-'] },
  { kind: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,400}\d)[A-Za-z0-9_-]{20,400}/g, needs: ['sk-'] },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255})(?![A-Za-z0-9_])/g, needs: ['gh', 'github_pat_'] },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|ft|imt|cbt|soat|agent|oas)-[A-Za-z0-9_-]{20,255}/g, needs: ['gl'] },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abeprs]-[A-Za-z0-9-]{10,255}/g, needs: ['xox'] },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk|pk|whsec)_(?:(?:live|test)_)?[A-Za-z0-9]{24,255}(?![A-Za-z0-9])/g, needs: ['sk_', 'rk_', 'pk_', 'whsec_'] },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, needs: ['AIza'] },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, needs: ['AKIA', 'ASIA', 'ABIA', 'ACCA'] },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, needs: ['eyJ'] },
  { kind: 'huggingface-token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,64}(?![A-Za-z0-9])/g, needs: ['hf_'] },
  { kind: 'pypi-token', pattern: /(?<![A-Za-z0-9_-])pypi-[A-Za-z0-9_-]{50,1000}/g, needs: ['pypi-'] },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, needs: ['npm_'] },
  { kind: 'twilio-key', pattern: /(?<![A-Za-z0-9_])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])/g, needs: ['SK', 'AC'] },
  { kind: 'sendgrid-key', pattern: /(?<![A-Za-z0-9_])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}(?![A-Za-z0-9_-])/g, needs: ['SG.'] },
  { kind: 'mailgun-key', pattern: /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9])/g, needs: ['key-'] },
  { kind: 'shopify-token', pattern: /(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[A-Fa-f0-9]{32}(?![A-Za-z0-9])/g, needs: ['shp'] },
  { kind: 'digitalocean-token', pattern: /(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/g, needs: ['_v1_'] },
  { kind: 'age-secret-key', pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g, needs: ['AGE-SECRET-KEY-1'] },
  { kind: 'discord-token', pattern: /(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g, needs: ['.'] },
  { kind: 'discord-webhook', pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{30,100}/g, needs: ['/api/webhooks/'] },
  { kind: 'telegram-bot-token', pattern: /(?<![A-Za-z0-9_:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g, needs: [':AA'] },
  { kind: 'vault-token', pattern: /(?<![A-Za-z0-9_.])hv[sbr]\.[A-Za-z0-9_-]{24,200}(?![A-Za-z0-9_-])/g, needs: ['hvs.', 'hvb.', 'hvr.'] },
  { kind: 'azure-storage-key', pattern: /(?<![A-Za-z0-9+/]|sha512-)[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])/g, needs: ['=='] },
];
