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
  /** The other half of the pair, its marker, or the provider's name. */
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
    anchor: /aws|amz|amazon|akia|asia|abia|acca|a3t/i,
    anchorTriggers: ['aws', 'amz', 'amazon', 'akia', 'asia', 'abia', 'acca', 'a3t'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Google Cloud Storage HMAC keys (interoperability): GOOG1… access id + 40-character base64 secret.
    kind: 'gcs_hmac_secret',
    anchor: /goog1|gcs_hmac|storage\.googleapis\.com/i,
    anchorTriggers: ['goog1', 'gcs_hmac', 'storage.googleapis.com'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Alibaba Cloud AccessKey: LTAI… id + 30-character secret.
    kind: 'alibaba_access_key_secret',
    anchor: /ltai|alibaba|aliyun/i,
    anchorTriggers: ['ltai', 'alibaba', 'aliyun'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9]{30}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Tencent Cloud API key: AKID… SecretId + 32-character SecretKey.
    kind: 'tencent_secret_key',
    anchor: /akid|tencent/i,
    anchorTriggers: ['akid', 'tencent'],
    secret: /(?<![A-Za-z0-9/+=])[A-Za-z0-9]{32}(?![A-Za-z0-9/+=])/g,
    random: (s) => looksLikeRandomKey(s),
  },
  {
    // Twilio: account SID (AC + 32 hex) + 32-hex auth token.
    kind: 'twilio_auth_token',
    anchor: /\bAC[0-9a-f]{32}\b|[Tt]wilio|TWILIO|\[REDACTED:twilio_key\]/,
    anchorTriggers: ['ac', 'twilio'],
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

/** The pairs whose anchor `text` (an event, serialised) carries. */
export function pairsAnchoredIn(text: string): readonly KeyPair[] {
  const lower = text.toLowerCase();
  return KEY_PAIRS.filter((pair) => pair.anchorTriggers.some((t) => lower.includes(t)) && pair.anchor.test(text));
}

/** The secret halves of `pairs` in `text`, wherever they sit in the event. */
export function redactPairedSecrets(text: string, pairs: readonly KeyPair[]): string {
  let out = text;
  for (const pair of pairs) out = out.replace(pair.secret, (m) => (pair.random(m) ? marker(pair.kind) : m));
  return out;
}
