import { looksLikeRandomKey, shannonEntropy } from '../entropy.js';
import { marker, type SecretRule } from '../secret-rule.js';

/**
 * Credentials that carry no label and no prefix: the secret half of a cloud key pair (an AWS secret access
 * key is 40 random base64 characters). Alone such a string is indistinguishable from other random text, so
 * it is taken only in company: where the same text, or the same event (redact-event.ts), carries the other
 * half (the key id, even one already redacted) or names the provider, and only when it looks random.
 */
export interface KeyPair {
  /** The marker the secret half becomes. */
  readonly kind: string;
  /**
   * The provider's name, which the other half's marker carries: the key ids (AKIA…, GOOG1…, LTAI…, AKID…,
   * AC…) are redacted by rules that run before, so "[REDACTED:aws_access_key_id]" is the anchor, in the same
   * text as in a second walk over the event.
   */
  readonly anchor: RegExp;
  /** Lower-case literals one of which every anchor match contains. */
  readonly anchorTriggers: readonly string[];
  /** The secret half's shape; global. */
  readonly secret: RegExp;
  readonly random: (candidate: string) => boolean;
}

/** Hex secrets (Twilio's auth token) have one case: entropy and both letters and digits instead. */
const randomHex = (value: string): boolean => /[a-f]/.test(value) && /[0-9]/.test(value) && shannonEntropy(value) >= 3;

export const KEY_PAIRS: readonly KeyPair[] = [
  {
    // AWS IAM: access key id (AKIA long-term, ASIA temporary, …) + 40-character secret access key.
    kind: 'aws_secret_access_key',
    anchor: /aws|amz|amazon/i,
    anchorTriggers: ['aws', 'amz'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Google Cloud Storage HMAC keys (interoperability): GOOG1… access id + 40-character base64 secret.
    kind: 'gcs_hmac_secret',
    anchor: /gcs_hmac|storage\.googleapis\.com/i,
    anchorTriggers: ['gcs_hmac', 'storage.googleapis.com'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Alibaba Cloud AccessKey: LTAI… id + 30-character secret.
    kind: 'alibaba_access_key_secret',
    anchor: /alibaba|aliyun/i,
    anchorTriggers: ['alibaba', 'aliyun'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9]{30}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Tencent Cloud API key: AKID… SecretId + 32-character SecretKey.
    kind: 'tencent_secret_key',
    anchor: /tencent/i,
    anchorTriggers: ['tencent'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9]{32}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Twilio: account SID (AC + 32 hex) + 32-hex auth token.
    kind: 'twilio_auth_token',
    anchor: /twilio/i,
    anchorTriggers: ['twilio'],
    secret: /(?<![A-Za-z0-9])[0-9a-f]{32}(?![A-Za-z0-9])/g,
    random: randomHex,
  },
  {
    // Azure Storage: account name + 88-character base64 account key (64 random bytes).
    kind: 'azure_storage_key',
    anchor: /accountname|core\.windows\.net|defaultendpointsprotocol|azure/i,
    anchorTriggers: ['accountname', 'core.windows.net', 'defaultendpointsprotocol', 'azure'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{86}==(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
];

/** Key ids that are not secrets alone but name the pair (gitleaks flags them too). */
export const KEY_ID_RULES: readonly SecretRule[] = [
  {
    // gitleaks alibaba-access-key-id.
    kind: 'alibaba_access_key_id',
    triggers: ['LTAI'],
    pattern: /\bLTAI[A-Za-z0-9]{12,20}\b/g,
    replace: () => marker('alibaba_access_key_id'),
  },
  {
    kind: 'tencent_secret_id',
    triggers: ['AKID'],
    pattern: /\bAKID[A-Za-z0-9]{13,40}\b/g,
    replace: () => marker('tencent_secret_id'),
  },
  {
    kind: 'gcs_hmac_access_id',
    triggers: ['GOOG1'],
    pattern: /\bGOOG1[A-Z0-9]{20,}\b/g,
    replace: () => marker('gcs_hmac_access_id'),
  },
];

/** A pair's secret half as a rule over one text: the anchor must be in the same text. */
export const KEY_PAIR_RULES: readonly SecretRule[] = KEY_PAIRS.map((pair) => ({
  kind: pair.kind,
  triggers: pair.anchorTriggers,
  context: pair.anchor,
  pattern: new RegExp(pair.secret.source, 'gi'),
  replace: (m: string) => (pair.random(m) ? marker(pair.kind) : m),
}));

/**
 * A secret half of any pair is a run of 30 or more key characters: most events hold none. Counted in one
 * pass (a regex `[…]{30}` retries at every position of a long run of shorter words).
 */
export function holdsKeyRun(text: string, length = 30): boolean {
  if (text.length < length) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const key = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47;
    run = key ? run + 1 : 0;
    if (run >= length) return true;
  }
  return false;
}
const ANY_ANCHOR = new RegExp(KEY_PAIRS.map((pair) => pair.anchor.source).join('|'), 'i');

/** The pairs whose anchor `text` (an event, serialised) carries, when it holds a candidate secret at all. */
export function pairsAnchoredIn(text: string): readonly KeyPair[] {
  if (!holdsKeyRun(text) || !ANY_ANCHOR.test(text)) return [];
  return KEY_PAIRS.filter((pair) => pair.anchor.test(text));
}

/** The secret halves of `pairs` in `text`, wherever they sit in the event. */
export function redactPairedSecrets(text: string, pairs: readonly KeyPair[]): string {
  let out = text;
  for (const pair of pairs) out = out.replace(pair.secret, (m) => (pair.random(m) ? marker(pair.kind) : m));
  return out;
}
