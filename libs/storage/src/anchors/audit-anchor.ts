import { sign, verify } from 'node:crypto';
import { canonicalJson } from '@tokencircuit/governance';
import type { AnchorSigningKey, AnchorVerifyingKey } from './anchor-key.js';
import type { EventsHead } from './events-digest.js';

/** The newest intervention of a tenant's hash chain when the anchor was taken. */
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

/** What an anchor states about one tenant, before it is signed. */
export interface AnchorHead {
  readonly tenant: string;
  /** null while the tenant has no intervention. */
  readonly chain: ChainHead | null;
  readonly events: EventsHead;
  /** ISO-8601 UTC. */
  readonly anchoredAt: string;
}

/** An anchor as published (audit-anchors topic, anchor files): the head, the key's id and an Ed25519 signature. */
export interface SignedAnchor extends AnchorHead {
  readonly v: 1;
  readonly keyId: string;
  /** base64 Ed25519 signature over anchorSigningText(). */
  readonly signature: string;
}

/** An anchor that cannot be trusted: malformed, signed by another key, or altered after signing. */
export class AnchorError extends Error {
  override readonly name = 'AnchorError';
}

/** The exact bytes signed: canonical JSON of everything but the signature, with a domain prefix. */
export function anchorSigningText(anchor: Omit<SignedAnchor, 'signature'>): string {
  return `tokencircuit.audit-anchor.v1\n${canonicalJson({
    v: anchor.v,
    keyId: anchor.keyId,
    tenant: anchor.tenant,
    chain: anchor.chain,
    events: anchor.events,
    anchoredAt: anchor.anchoredAt,
  })}`;
}

export function signAnchor(head: AnchorHead, key: AnchorSigningKey): SignedAnchor {
  const unsigned = { v: 1 as const, keyId: key.keyId, ...head };
  const signature = sign(null, Buffer.from(anchorSigningText(unsigned), 'utf8'), key.privateKey).toString('base64');
  return { ...unsigned, signature };
}

const isNat = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isHash = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** Checks the shape of a parsed anchor (from a topic record or a file); throws AnchorError naming the field. */
export function parseSignedAnchor(value: unknown): SignedAnchor {
  const fail = (what: string): never => {
    throw new AnchorError(`not an audit anchor: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not a JSON object');
  const a = value as Record<string, unknown>;
  if (a['v'] !== 1) fail(`unknown version ${JSON.stringify(a['v'])}`);
  if (typeof a['tenant'] !== 'string' || a['tenant'] === '') fail('tenant missing');
  if (typeof a['keyId'] !== 'string') fail('keyId missing');
  if (typeof a['signature'] !== 'string') fail('signature missing');
  if (typeof a['anchoredAt'] !== 'string' || Number.isNaN(Date.parse(a['anchoredAt']))) fail('anchoredAt missing');
  const chain = a['chain'] as Record<string, unknown> | null | undefined;
  if (chain !== null && (typeof chain !== 'object' || !isNat(chain['seq']) || !isHash(chain['hash']))) {
    fail('chain must be null or { seq, hash }');
  }
  const events = a['events'] as Record<string, unknown> | undefined;
  if (
    typeof events !== 'object' ||
    events === null ||
    !isNat(events['through']) ||
    !isNat(events['count']) ||
    !(events['digest'] === null || isHash(events['digest']))
  ) {
    fail('events must be { through, count, digest }');
  }
  return {
    v: 1,
    keyId: a['keyId'] as string,
    tenant: a['tenant'] as string,
    chain: chain ? { seq: chain['seq'] as number, hash: chain['hash'] as string } : null,
    events: {
      through: events!['through'] as number,
      count: events!['count'] as number,
      digest: events!['digest'] as string | null,
    },
    anchoredAt: a['anchoredAt'] as string,
    signature: a['signature'] as string,
  };
}

/** Parses and checks the signature with the verifier's key; throws AnchorError when it does not hold. */
export function verifyAnchor(value: unknown, key: AnchorVerifyingKey): SignedAnchor {
  const anchor = parseSignedAnchor(value);
  if (anchor.keyId !== key.keyId) {
    throw new AnchorError(`anchor of tenant ${anchor.tenant} is signed by key ${anchor.keyId}, not by ${key.keyId}`);
  }
  const { signature, ...unsigned } = anchor;
  const ok = verify(
    null,
    Buffer.from(anchorSigningText(unsigned), 'utf8'),
    key.publicKey,
    Buffer.from(signature, 'base64'),
  );
  if (!ok) throw new AnchorError(`anchor of tenant ${anchor.tenant}: the signature does not match its content`);
  return anchor;
}
