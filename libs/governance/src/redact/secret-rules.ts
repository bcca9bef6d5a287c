import { HIGH_ENTROPY_BITS, shannonEntropy } from './entropy.js';
import { PROVIDER_RULES } from './provider-rules.js';
import { marker, type SecretRule } from './secret-rule.js';

export { marker, type SecretRule } from './secret-rule.js';
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
 * Ordered: whole structures first (PEM blocks, URLs with credentials, Authorization values), then
 * self-identifying tokens (JWT, provider key prefixes, see provider-rules.ts), then values by the name
 * of their key, then random-looking values under names that merely contain a secret-ish word, then
 * e-mail addresses. docs/security.md lists every rule.
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
    // scheme://<token>@host: a user part with no password that looks random is a token used as user
    // (GitHub, GitLab and many HTTP APIs accept one there); a plain user name stays.
    kind: 'url_token',
    triggers: ['://'],
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([A-Za-z0-9._~%!$&'()*+,;=-]{16,})@/gi,
    replace: (m, scheme, user) =>
      shannonEntropy(user) >= HIGH_ENTROPY_BITS ? `${scheme}${marker('credentials')}@` : m,
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
  ...PROVIDER_RULES,
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
    // gitleaks generic-api-key: a name holding a secret-ish word anywhere (not only at its end, as
    // above) and a value that looks random, e.g. "apiKeyId=Xk3…", "auth.header: 9fQ…".
    kind: 'generic_secret',
    triggers: ['access', 'auth', 'api', 'credential', 'creds', 'key', 'passw', 'secret', 'token', 'sig'],
    pattern: new RegExp(
      `(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{0,40}?(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token|sig)[A-Za-z0-9_.-]{0,20})(\\s*["']?\\s*[:=]\\s*["']?)${NOT_REDACTED}([A-Za-z0-9_.+/=~-]{10,})(?![A-Za-z0-9_.+/=~-])`,
      'gi',
    ),
    replace: (m, key, sep, value) =>
      shannonEntropy(value) >= HIGH_ENTROPY_BITS ? `${key}${sep}${marker('secret')}` : m,
  },
  {
    kind: 'email',
    personal: true,
    triggers: ['@'],
    pattern:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}\b/g,
    replace: whole('email'),
  },
];
