import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateAnchorKeyPair, parseAnchorSigningKey, parseAnchorVerifyingKey } from './anchor-key.js';
import { parseSignedAnchor, signAnchor, verifyAnchor, type AnchorHead } from './audit-anchor.js';

const pair = generateAnchorKeyPair();
const signing = parseAnchorSigningKey(pair.privateKeyPem);
const verifying = parseAnchorVerifyingKey(pair.publicKeyPem);
const head: AnchorHead = {
  tenant: 'acme',
  chain: { seq: 42, hash: 'a'.repeat(64) },
  events: { through: 900, count: 17, digest: 'b'.repeat(64) },
  anchoredAt: '2026-12-01T17:00:00.000Z',
};

describe('audit anchors: an Ed25519-signed head per tenant', () => {
  it('a signed anchor verifies with the public key, after a JSON round trip', () => {
    const anchor = signAnchor(head, signing);
    expect(anchor).toMatchObject({ v: 1, keyId: pair.keyId, ...head });
    expect(verifyAnchor(JSON.parse(JSON.stringify(anchor)), verifying)).toEqual(anchor);
  });

  it('any change to a signed field breaks the signature', () => {
    const anchor = signAnchor(head, signing);
    const edits = [
      { ...anchor, tenant: 'other' },
      { ...anchor, chain: { seq: 41, hash: 'a'.repeat(64) } },
      { ...anchor, chain: { seq: 42, hash: 'c'.repeat(64) } },
      { ...anchor, chain: null },
      { ...anchor, events: { ...anchor.events, count: 16 } },
      { ...anchor, events: { ...anchor.events, through: 899 } },
      { ...anchor, anchoredAt: '2026-12-02T17:00:00.000Z' },
    ];
    for (const edited of edits) {
      expect(() => verifyAnchor(edited, verifying)).toThrow(/signature does not match/);
    }
  });

  it('an anchor signed by another key is refused and both keys are named', () => {
    const other = parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem);
    expect(() => verifyAnchor(signAnchor(head, other), verifying)).toThrow(
      `signed by key ${other.keyId}, not by ${pair.keyId}`,
    );
  });

  it('malformed anchors are refused naming what is wrong', () => {
    expect(() => parseSignedAnchor('x')).toThrow('not a JSON object');
    expect(() => parseSignedAnchor({ ...signAnchor(head, signing), v: 2 })).toThrow('unknown version 2');
    expect(() => parseSignedAnchor({ ...signAnchor(head, signing), chain: { seq: -1, hash: 'x' } })).toThrow(
      'chain must be null',
    );
    expect(() => parseSignedAnchor({ ...signAnchor(head, signing), events: undefined })).toThrow('events must be');
  });

  it('keys: a hex seed gives the same key as its PEM; a public key parses from PEM or hex; junk is named', () => {
    const seed = signing.privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(16).toString('hex');
    expect(parseAnchorSigningKey(seed).keyId).toBe(pair.keyId);
    const rawPublic = signing.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
    expect(parseAnchorVerifyingKey(rawPublic).keyId).toBe(pair.keyId);
    expect(parseAnchorVerifyingKey(pair.privateKeyPem).keyId).toBe(pair.keyId);
    expect(() => parseAnchorSigningKey('not a key')).toThrow(/not an Ed25519 private key/);
    expect(() => parseAnchorVerifyingKey('abc')).toThrow(/not an Ed25519 public key/);
  });

  it('property: signing then verifying returns the head for any tenant, positions and time', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.option(fc.record({ seq: fc.nat(), hash: fc.stringMatching(/^[0-9a-f]{64}$/) }), { nil: null }),
        fc.record({
          through: fc.nat(),
          count: fc.nat(),
          digest: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
        }),
        fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
        (tenant, chain, events, when) => {
          const h = { tenant, chain, events, anchoredAt: when.toISOString() };
          expect(verifyAnchor(JSON.parse(JSON.stringify(signAnchor(h, signing))), verifying)).toMatchObject(h);
        },
      ),
      { numRuns: 50 },
    );
  });
});
