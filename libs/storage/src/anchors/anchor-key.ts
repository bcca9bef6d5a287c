import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** The decision service's signing key: an Ed25519 private key, its public half and a short id of it. */
export interface AnchorSigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly keyId: string;
}

/** What a verifier holds: the public key only (it cannot sign). */
export interface AnchorVerifyingKey {
  readonly publicKey: KeyObject;
  readonly keyId: string;
}

/** A key that is not an Ed25519 key in one of the accepted forms; the message says which forms. */
export class AnchorKeyError extends Error {
  override readonly name = 'AnchorKeyError';
}

// DER prefixes of PKCS#8 (private) and SPKI (public) Ed25519 keys: RFC 8410 with the 32 key bytes appended.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HEX_32 = /^[0-9a-fA-F]{64}$/;

/** sha256 of the 32 raw public-key bytes, first 16 hex digits: names the key in every anchor. */
export function anchorKeyId(publicKey: KeyObject): string {
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

/**
 * TOKENCIRCUIT_ANCHOR_KEY: a PKCS#8 PEM Ed25519 private key (`openssl genpkey -algorithm ed25519`,
 * `tokencircuit anchors keygen`), or its 32-byte seed as 64 hex digits.
 */
export function parseAnchorSigningKey(text: string): AnchorSigningKey {
  const trimmed = text.trim();
  let privateKey: KeyObject;
  try {
    privateKey = HEX_32.test(trimmed)
      ? createPrivateKey({
          key: Buffer.concat([PKCS8_PREFIX, Buffer.from(trimmed, 'hex')]),
          format: 'der',
          type: 'pkcs8',
        })
      : createPrivateKey({ key: trimmed, format: 'pem' });
  } catch {
    throw new AnchorKeyError(
      'not an Ed25519 private key: give a PKCS#8 PEM (tokencircuit anchors keygen) or 64 hex digits (a 32-byte seed)',
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new AnchorKeyError(`an ${privateKey.asymmetricKeyType ?? 'unknown'} key, not an Ed25519 key`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: anchorKeyId(publicKey) };
}

/** The verifier's key: an SPKI PEM Ed25519 public key, its 32 raw bytes as 64 hex digits, or the private key (its public half is used). */
export function parseAnchorVerifyingKey(text: string): AnchorVerifyingKey {
  const trimmed = text.trim();
  if (trimmed.includes('PRIVATE KEY')) {
    const { publicKey, keyId } = parseAnchorSigningKey(trimmed);
    return { publicKey, keyId };
  }
  let publicKey: KeyObject;
  try {
    publicKey = HEX_32.test(trimmed)
      ? createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(trimmed, 'hex')]), format: 'der', type: 'spki' })
      : createPublicKey({ key: trimmed, format: 'pem' });
  } catch {
    throw new AnchorKeyError(
      'not an Ed25519 public key: give an SPKI PEM (tokencircuit anchors keygen) or 64 hex digits',
    );
  }
  if (publicKey.asymmetricKeyType !== 'ed25519') {
    throw new AnchorKeyError(`an ${publicKey.asymmetricKeyType ?? 'unknown'} key, not an Ed25519 key`);
  }
  return { publicKey, keyId: anchorKeyId(publicKey) };
}

/** A fresh key pair as PEM text (what `tokencircuit anchors keygen` prints). */
export function generateAnchorKeyPair(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    keyId: anchorKeyId(publicKey),
  };
}
