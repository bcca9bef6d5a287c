/** One family of secrets: what it looks like and what survives of it. */
export interface SecretRule {
  readonly kind: string;
  readonly pattern: RegExp;
  /** The replacement; receives the match and its groups like String.prototype.replace. */
  readonly replace: (match: string, ...groups: string[]) => string;
  /**
   * Literals one of which every match of the pattern contains (lower-case when the pattern ignores
   * case): text holding none of them cannot match, so redact() skips the regex. Most receipts hold
   * no secret, and running every rule's regex over every one of them was most of a receipt's cost.
   * A property spec holds each rule to its triggers.
   */
  readonly triggers: readonly string[];
}

export const marker = (kind: string): string => `[REDACTED:${kind}]`;
const whole = (kind: string) => (): string => marker(kind);

/** "Basic <base64>" is a credential only when it decodes to user:password (RFC 7617). */
const decodesToUserPass = (b64: string): boolean => {
  try {
    return atob(b64).includes(':');
  } catch {
    return false;
  }
};

// A key whose value is a secret: names ending in one of these words (case-insensitive), so
// "access_token" and "githubToken" match while "max_tokens" and "token_type" do not.
const SECRET_KEY =
  '[A-Za-z0-9_.-]*?(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|accountkey|private[_-]?key|credentials?|signature|sig)';
const PASSWORD_KEY = /(?:password|passwd|pwd|passphrase)$/i;
const kindOfKey = (key: string): string => (PASSWORD_KEY.test(key) ? 'password' : 'secret');
const NOT_REDACTED = '(?!\\[REDACTED)';
// Every SECRET_KEY match contains one of these ("pass" covers password, passwd and passphrase; "key"
// every *key; "sig" signature).
const SECRET_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'sig'];

/**
 * Ordered: whole structures first (PEM blocks, URLs with passwords, Authorization values), then
 * self-identifying tokens (JWT, provider key prefixes), then values by the name of their key, then
 * e-mail addresses. Prefixes and lengths follow each provider's documented or long-stable format.
 */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private_key',
    triggers: ['-----BEGIN '],
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
    replace: whole('private_key'),
  },
  {
    // scheme://user:password@host — keep the user and host, which identify without authenticating.
    kind: 'password',
    triggers: ['://'],
    // The lookbehind pins the start to the beginning of a run, keeping the scan linear.
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([^\s:/?#@'"]*):([^\s/?#'"]+)@/gi,
    replace: (_m, scheme, user) => `${scheme}${user}:${marker('password')}@`,
  },
  {
    kind: 'credentials',
    triggers: ['authorization'],
    pattern: /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)(?:([A-Za-z][\w.-]*)\s+)?([^\s"',;]+)/gi,
    replace: (_m, header, sep, scheme, _value) =>
      `${header}${sep}${scheme ? `${scheme} ` : ''}${marker('credentials')}`,
  },
  {
    // Cookies are session credentials; the whole header value goes, every cookie in it.
    kind: 'cookie',
    triggers: ['cookie'],
    pattern: /\b((?:set-)?cookie)(["']?\s*:\s*["']?)(?!\s*\[REDACTED)[^\r\n"']+/gi,
    replace: (_m, header, sep) => `${header}${sep}${marker('cookie')}`,
  },
  {
    // RFC 6750 b64token: 16+ characters, or 8+ with a digit or symbol, so "Bearer authentication"
    // prose survives while real tokens do not.
    kind: 'bearer_token',
    triggers: ['Bearer'],
    pattern: /\bBearer\s+(?:[A-Za-z0-9\-._~+/]{16,}|(?=[A-Za-z0-9\-._~+/]*[0-9\-._~+/])[A-Za-z0-9\-._~+/]{8,})=*/g,
    replace: () => `Bearer ${marker('bearer_token')}`,
  },
  {
    kind: 'basic_auth',
    triggers: ['Basic'],
    pattern: /\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    replace: (m, b64) => (decodesToUserPass(b64) ? `Basic ${marker('basic_auth')}` : m),
  },
  {
    kind: 'jwt',
    triggers: ['eyJ'],
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+){0,2}/g,
    replace: whole('jwt'),
  },
  {
    kind: 'anthropic_key',
    triggers: ['sk-ant-'],
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g,
    replace: whole('anthropic_key'),
  },
  {
    kind: 'openai_key',
    triggers: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    replace: whole('openai_key'),
  },
  {
    kind: 'stripe_key',
    triggers: ['_live_', '_test_'],
    pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
    replace: whole('stripe_key'),
  },
  {
    kind: 'stripe_webhook_secret',
    triggers: ['whsec_'],
    pattern: /\bwhsec_[A-Za-z0-9+/=]{20,}/g,
    replace: whole('stripe_webhook_secret'),
  },
  {
    kind: 'aws_access_key_id',
    triggers: ['AKIA', 'ASIA'],
    pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
    replace: whole('aws_access_key_id'),
  },
  {
    kind: 'github_token',
    triggers: ['gh', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
    replace: whole('github_token'),
  },
  {
    kind: 'slack_token',
    triggers: ['xox', 'xapp-'],
    pattern: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g,
    replace: whole('slack_token'),
  },
  {
    kind: 'slack_webhook',
    triggers: ['https://hooks.slack.com/'],
    pattern: /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_-]+/g,
    replace: (_m, prefix) => `${prefix}${marker('slack_webhook')}`,
  },
  {
    kind: 'google_api_key',
    triggers: ['AIza'],
    pattern: /\bAIza[0-9A-Za-z_-]{30,}/g,
    replace: whole('google_api_key'),
  },
  {
    kind: 'google_oauth_token',
    triggers: ['ya29.'],
    pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g,
    replace: whole('google_oauth_token'),
  },
  {
    kind: 'twilio_key',
    triggers: ['SK', 'AC'],
    pattern: /\b(?:SK[0-9a-fA-F]{32}|AC[0-9a-f]{32})\b/g,
    replace: whole('twilio_key'),
  },
  {
    kind: 'sendgrid_key',
    triggers: ['SG.'],
    pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g,
    replace: whole('sendgrid_key'),
  },
  {
    kind: 'npm_token',
    triggers: ['npm_'],
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    replace: whole('npm_token'),
  },
  {
    kind: 'gitlab_token',
    triggers: ['glpat-'],
    pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g,
    replace: whole('gitlab_token'),
  },
  {
    kind: 'huggingface_token',
    triggers: ['hf_'],
    pattern: /\bhf_[A-Za-z0-9]{30,}\b/g,
    replace: whole('huggingface_token'),
  },
  {
    // "password": "…" in JSON or a Python repr, quotes kept.
    kind: 'secret_field',
    triggers: SECRET_WORDS,
    pattern: new RegExp(`(["'])(${SECRET_KEY})\\1(\\s*:\\s*)(["'])${NOT_REDACTED}((?:\\\\.|(?!\\4)[^\\\\])*)\\4`, 'gi'),
    replace: (_m, q, key, sep, vq) => `${q}${key}${q}${sep}${vq}${marker(kindOfKey(key))}${vq}`,
  },
  {
    // key=value and key: value in connection strings, query strings, env files, YAML and headers.
    kind: 'secret_assignment',
    triggers: SECRET_WORDS,
    pattern: new RegExp(
      `(?<![A-Za-z0-9_.-])(${SECRET_KEY})(\\s*[:=]\\s*)${NOT_REDACTED}(?:"([^"]*)"|'([^']*)'|([^\\s,;&'"}\\])<>]+))`,
      'gi',
    ),
    replace: (m, key, sep, dq, sq, bare) => {
      if (dq === undefined && sq === undefined && bare === undefined) return m;
      const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : '';
      return `${key}${sep}${quote}${marker(kindOfKey(key))}${quote}`;
    },
  },
  {
    kind: 'email',
    triggers: ['@'],
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}\b/g,
    replace: whole('email'),
  },
];
