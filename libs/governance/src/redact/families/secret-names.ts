/**
 * Names whose value is a credential (arguments, headers, JSON members, query parameters, `NAME=value` in
 * env dumps and connection strings), by token families rather than a list of spellings: the name is split
 * into words (camelCase, PascalCase, snake_case, kebab-case, dotted, SCREAMING_CASE, stray whitespace),
 * and its last word decides. "db_password", "DB_PASS", "clientSecret", "x-goog-api-key",
 * "Ocp-Apim-Subscription-Key", "signing_key" and "JSESSIONID" are credentials; "password_reset_required",
 * "token_type", "max_tokens", "api_key_id", "partition_key" and "secret_name" are not (their last word is
 * not a credential word, or "key" has no credential qualifier).
 */

/** Last words whose value is a password. `pass` only as a whole word ("bypass", "compass" are not). */
const PASSWORD_SUFFIXES = ['password', 'passwd', 'passphrase'];
const PASSWORD_WORDS = new Set(['pass', 'pw']);

/**
 * Last words (or their endings, for names written as one word: "accesstoken", "PGPASSWORD") whose value
 * is a credential.
 */
const SECRET_SUFFIXES = [
  'secret',
  'token',
  'credential',
  'credentials',
  'cookie',
  'authorization',
  'signature',
  'sessionid',
  'sessid',
];
/** Whole last words only: shorter, so "sig" is not "config" and "auth" is not "oauth". */
const SECRET_WORDS = new Set(['sig', 'creds', 'auth', 'session', 'otp', 'totp', 'cvv', 'cvc']);
/**
 * "sid" is a session cookie ("sid", "connect.sid") but also an account or resource id (Twilio's
 * "AccountSid"): a credential alone or after one of these.
 */
const SID_QUALIFIERS = new Set(['connect', 'session', 'sess', 'auth', 'login']);

/**
 * "key" is a credential only with one of these before it ("api key", "signing key", "AccountKey",
 * "x-functions-key", "Ocp-Apim-Subscription-Key"); "partition key", "sort key", "idempotency key",
 * "public key", "cache key" and "object key" are not.
 */
const KEY_QUALIFIERS = [
  'api',
  'access',
  'secret',
  'private',
  'priv',
  'auth',
  'signing',
  'sign',
  'app',
  'application',
  'account',
  'client',
  'consumer',
  'master',
  'admin',
  'root',
  'encryption',
  'decryption',
  'encrypt',
  'crypt',
  'crypto',
  'enc',
  'session',
  'subscription',
  'function',
  'functions',
  'service',
  'hmac',
  'shared',
  'webhook',
  'ssh',
  'gpg',
  'pgp',
  'rsa',
  'ecdsa',
  'ed25519',
  'jwt',
  'mac',
  'license',
  'licence',
  'deploy',
  'security',
  'storage',
  'sas',
  'write',
  'ingest',
  'ingestion',
  'live',
  'test',
  'server',
];
const KEY_QUALIFIER_SET = new Set(KEY_QUALIFIERS);

/**
 * Literals every credential name contains once lower-cased (a rule's triggers, see secret-rule.ts): the
 * names this module accepts are a subset of the names holding one of these. secret-names.unit.spec.ts
 * holds it so.
 */
export const SECRET_NAME_TRIGGERS = [
  'pass',
  'pw',
  'secret',
  'token',
  'credential',
  'cookie',
  'authorization',
  'signature',
  'sess',
  'sig',
  'creds',
  'auth',
  'sid',
  'otp',
  'cvv',
  'cvc',
  'key',
];

/** The words of a name, lower-cased: "XApiKey" → [x, api, key], "DB_PASS" → [db, pass]. */
export function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

export type SecretNameKind = 'password' | 'secret';

export interface SecretNameOptions {
  /**
   * "pwd" as a password: yes in connection strings (ODBC's `PWD=`), no in tool arguments, where it is the
   * working directory far more often.
   */
  readonly pwd?: boolean;
}

/**
 * Names repeat from event to event (argument and header names): the answer is remembered, per option, up to
 * a bound (the function is pure, so remembering changes no result).
 */
const KNOWN_NAMES = [new Map<string, SecretNameKind | null>(), new Map<string, SecretNameKind | null>()];
const KNOWN_NAMES_MAX = 4096;

/** Whether a value under `name` is a credential, and which marker it gets; null when it is not. */
export function secretNameKind(name: string, options: SecretNameOptions = {}): SecretNameKind | null {
  if (name.length > 128) return null;
  const known = KNOWN_NAMES[options.pwd === true ? 1 : 0]!;
  const remembered = known.get(name);
  if (remembered !== undefined) return remembered;
  const kind = kindOfName(name, options);
  if (known.size >= KNOWN_NAMES_MAX) known.clear();
  known.set(name, kind);
  return kind;
}

function kindOfName(name: string, options: SecretNameOptions): SecretNameKind | null {
  const words = nameTokens(name);
  const last = words[words.length - 1];
  if (last === undefined) return null;
  if (PASSWORD_WORDS.has(last) || PASSWORD_SUFFIXES.some((s) => last.endsWith(s))) return 'password';
  if (options.pwd === true && last === 'pwd') return 'password';
  if (SECRET_WORDS.has(last) || SECRET_SUFFIXES.some((s) => last.endsWith(s))) return 'secret';
  if (last === 'sid' && (words.length === 1 || SID_QUALIFIERS.has(words[words.length - 2]!))) return 'secret';
  // "session id", "ASP.NET_SessionId": the id of a session is its credential.
  if (last === 'id' && words[words.length - 2] === 'session') return 'secret';
  if (isCredentialKey(words)) return 'secret';
  return null;
}

export const isSecretName = (name: string, options?: SecretNameOptions): boolean =>
  secretNameKind(name, options) !== null;

function isCredentialKey(words: readonly string[]): boolean {
  const last = words[words.length - 1]!;
  if (last === 'key' || last === 'keys') {
    const before = words[words.length - 2];
    return before !== undefined && KEY_QUALIFIER_SET.has(before);
  }
  // One word: "apikey", "AccountKey" split already; "secretkey", "awssecretkey", "signingkey".
  if (!last.endsWith('key') || last.length <= 3) return false;
  const stem = last.slice(0, -3);
  return KEY_QUALIFIERS.some((q) => stem.endsWith(q) && (stem.length === q.length || q.length >= 4));
}
