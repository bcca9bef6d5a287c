import { HIGH_ENTROPY_BITS, shannonEntropy } from '../entropy.js';
import { marker, type SecretRule } from '../secret-rule.js';
import { SECRET_NAME_TRIGGERS, secretNameKind } from './secret-names.js';

/**
 * Key/value pairs in free text, where the key says the value is a credential: JSON and Python-dict
 * members, `NAME=value` / `name: value` (env dumps, YAML, connection strings, headers written out), command
 * line flags, SQL that sets a password, cookies. Names are judged by the token families of
 * secret-names.ts, so "DB_PASS=…", "secret_key: …", "--api-key …" and "x-goog-api-key: …" go while
 * "password_reset_required: true" and "max_tokens=1024" stay.
 */

/** A value that is exactly a marker is already redacted; one that only starts with a marker is not. */
const isMarker = (value: string): boolean => /^\[REDACTED:[a-z0-9_]+\]$/.test(value);
/**
 * Authorization and Cookie values are the auth-scheme and cookie rules' (the scheme word stays, every
 * cookie goes): the rules below leave those names alone so the two never rewrite each other's output.
 */
const OWN_RULE = /(?:authorization|cookie2?)$/i;
const kindOf = (name: string): 'password' | 'secret' | null =>
  OWN_RULE.test(name.trim()) ? null : secretNameKind(name.trim(), { pwd: true });
/** Literals (flags and SQL keywords aside) every credential name contains: secret-names.ts. */
const NAME_TRIGGERS = SECRET_NAME_TRIGGERS;

// A name: letters, digits and the separators names use, stray whitespace inside quotes allowed.
const NAME = String.raw`[A-Za-z_$][A-Za-z0-9_.$\-\[\]]{0,100}`;
// A marker followed by more text is a value too (an attacker's "[REDACTED:x]hunter2" must not pass as done).
const BARE = String.raw`(?:\[REDACTED:[a-z0-9_]+\]|[^\s,;&'"}\])<>\\])+`;

const ASSIGNMENT_SOURCE = String.raw`(?<![A-Za-z0-9_.$-])(${NAME})(\\*["']?(?:[ \t]|\\t)*[:=](?:[ \t]|\\t)*)(?:(\\+")((?:[^"\\]|\\+[^"\\])*?)\\+"|"([^"]*)"|'([^']*)'|(${BARE}))`;
const ASSIGNMENT = new RegExp(ASSIGNMENT_SOURCE, 'gi');

function redactAssignment(
  m: string,
  name: string,
  sep: string,
  escapedQuote?: string,
  escaped?: string,
  dq?: string,
  sq?: string,
  bare?: string,
): string {
  const value = escaped ?? dq ?? sq ?? bare;
  if (value === undefined) return m;
  const open = escapedQuote ?? (dq !== undefined ? '"' : sq !== undefined ? "'" : '');
  const kind = kindOf(name);
  if (kind === null) {
    // Not a credential name: its value may still hold an assignment ("error": "DB_PASS=…").
    const inner = value.replace(new RegExp(ASSIGNMENT_SOURCE, 'gi'), redactAssignment as never);
    return inner === value ? m : `${name}${sep}${open}${inner}${open}`;
  }
  if (isMarker(value)) return m;
  return `${name}${sep}${open}${marker(kind)}${open}`;
}

export const KEY_VALUE_RULES: readonly SecretRule[] = [
  {
    // PostgreSQL CREATE/ALTER ROLE|USER … [ENCRYPTED] PASSWORD '…', SQL Server … PASSWORD = '…',
    // MySQL SET PASSWORD … = PASSWORD('…'), IDENTIFIED [WITH plugin] BY|AS '…'. Only a quoted value after
    // PASSWORD: "password authentication failed" is PostgreSQL's own prose.
    kind: 'sql_password',
    triggers: ['password', 'identified'],
    pattern:
      /(?<![\w"'])(PASSWORD(?:\s+|\s*=\s*|\s*\(\s*)(?:PASSWORD\s*\(\s*)?|IDENTIFIED\s+(?:WITH\s+['"`]?[\w-]+['"`]?\s+)?(?:BY|AS)(?:\s+PASSWORD)?\s*)(E?'(?:[^'\\]|''|\\.)*'|"(?:[^"\\]|""|\\.)*")/gi,
    replace: (m, lead: string, quoted: string) => {
      const q = quoted.endsWith('"') ? '"' : "'";
      const inner = quoted.slice(quoted.indexOf(q) + 1, -1);
      return isMarker(inner) ? m : `${lead}${q}${marker('password')}${q}`;
    },
  },
  {
    // Oracle: CREATE|ALTER USER name IDENTIFIED BY password, unquoted.
    kind: 'sql_password',
    triggers: ['identified'],
    pattern: /\b((?:CREATE|ALTER)\s+USER\s+(?:IF\s+NOT\s+EXISTS\s+)?\S+\s+IDENTIFIED\s+BY\s+)([^\s'";]+)/gi,
    replace: (m, lead: string, value: string) => (isMarker(value) ? m : `${lead}${marker('password')}`),
  },
  {
    // Cookie and Set-Cookie headers written out: every cookie of the value goes.
    kind: 'cookie',
    triggers: ['cookie'],
    pattern: /\b((?:set-)?cookie2?)(\\?["']?\s*:\s*\\?["']?)[^\r\n"'\\]+/gi,
    replace: (_m, header: string, sep: string) => `${header}${sep}${marker('cookie')}`,
  },
  {
    // "password": "…" in JSON or a Python repr (quotes kept), names with stray whitespace included.
    kind: 'secret_field',
    triggers: NAME_TRIGGERS,
    pattern: /(["'])([^"'\\\r\n]{1,100})\1(\s*:\s*)(["'])((?:\\.|(?!\4)[^\\])*)\4/gi,
    replace: (m, q: string, name: string, sep: string, vq: string, value: string) => {
      const kind = kindOf(name);
      if (kind === null || isMarker(value)) return m;
      return `${q}${name}${q}${sep}${vq}${marker(kind)}${vq}`;
    },
  },
  {
    // NAME=value and name: value: env dumps, YAML, connection strings, headers, JSON numbers; a quoted value
    // escaped once or more (JSON held as text inside JSON). A value under any other name is searched in turn
    // ("error": "DB_PASS=…" holds an assignment of its own).
    kind: 'secret_assignment',
    triggers: NAME_TRIGGERS,
    pattern: ASSIGNMENT,
    replace: redactAssignment,
  },
  {
    // --password hunter2, --api-key=…, -token …; curl's -u / --user user:password (the user stays).
    kind: 'secret_flag',
    // A long flag anywhere, a short one after a blank or a quote.
    triggers: ['--', ' -', '\t-', '\n-', '"-', "'-"],
    pattern: /(?<![\w-])(--|(?<=[ \t\n"'])-)([A-Za-z][\w.-]{0,60})(=|[ \t]+)(?!-)("[^"]*"|'[^']*'|[^\s'"]+)/g,
    replace: (m, dashes: string, name: string, sep: string, value: string) => {
      const inner = value.replace(/^(["'])(.*)\1$/, '$2');
      if (isMarker(inner)) return m;
      const quote = value.length > inner.length ? value[0]! : '';
      if (name === 'u' || name === 'user' || name === 'proxy-user') {
        const colon = inner.indexOf(':');
        if (colon < 0 || isMarker(inner.slice(colon + 1))) return m;
        return `${dashes}${name}${sep}${quote}${inner.slice(0, colon)}:${marker('password')}${quote}`;
      }
      const kind = kindOf(name);
      return kind === null ? m : `${dashes}${name}${sep}${quote}${marker(kind)}${quote}`;
    },
  },
];

/**
 * gitleaks' generic-api-key: a name holding a secret-ish word anywhere (not only as its last word, as
 * above) and a value that looks random, e.g. "apiKeyId=Xk3…", "auth.header: 9fQ…".
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const GENERIC_SECRET_RULE: SecretRule = {
  kind: 'generic_secret',
  triggers: ['access', 'auth', 'api', 'credential', 'creds', 'key', 'passw', 'secret', 'token', 'sig'],
  pattern: new RegExp(
    String.raw`(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{0,40}?(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token|sig)[A-Za-z0-9_.-]{0,20})(\s*["']?\s*[:=]\s*["']?)(?!\[REDACTED:[a-z0-9_]+\](?![A-Za-z0-9_.+/=~-]))([A-Za-z0-9_.+/=~-]{10,})(?![A-Za-z0-9_.+/=~-])`,
    'gi',
  ),
  // A UUID under "idempotency-key", "request-key", … is an identifier; under a credential name
  // (api_key=<uuid>) the assignment rule above has taken it already.
  replace: (m, key: string, sep: string, value: string) =>
    shannonEntropy(value) >= HIGH_ENTROPY_BITS && !UUID.test(value) ? `${key}${sep}${marker('secret')}` : m,
};
