import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PagerDutySecretRing, pagerDutySignature, v1Signatures } from './webhook-signature.js';

const ACME = 'acme-pagerduty-webhook-secret-0123';
const GLOBEX = 'globex-pagerduty-webhook-secret-0123';
const ring = PagerDutySecretRing.of([
  ['acme', ACME],
  ['globex', GLOBEX],
]);
const body = Buffer.from('{"event":{"id":"e1","event_type":"incident.resolved"}}');

describe('PagerDuty webhook signatures (X-PagerDuty-Signature: v1=<hex HMAC-SHA256 of the raw body>)', () => {
  it('is the hex HMAC-SHA256 of the raw bytes with the secret, as PagerDuty computes it', () => {
    expect(pagerDutySignature(body, ACME)).toBe(`v1=${createHmac('sha256', ACME).update(body).digest('hex')}`);
  });

  it('the secret that signed a delivery names its tenant; an unknown secret or no header names none', () => {
    expect(ring.tenantOf(body, pagerDutySignature(body, ACME))).toBe('acme');
    expect(ring.tenantOf(body, pagerDutySignature(body, GLOBEX))).toBe('globex');
    expect(ring.tenantOf(body, pagerDutySignature(body, 'someone-else-entirely-0123'))).toBeNull();
    expect(ring.tenantOf(body, undefined)).toBeNull();
    expect(ring.tenantOf(body, 'v1=nothex, v0=abc, garbage')).toBeNull();
  });

  it('accepts any of several comma-separated signatures (PagerDuty signs with old and new secret while rotating)', () => {
    const rotating = `${pagerDutySignature(body, 'the-old-secret-nobody-has-0123')}, ${pagerDutySignature(body, ACME)}`;
    expect(ring.tenantOf(body, rotating)).toBe('acme');
    expect(v1Signatures(rotating)).toHaveLength(2);
    expect(v1Signatures(['v1=' + 'a'.repeat(64), 'v2=' + 'b'.repeat(64)])).toHaveLength(1);
  });

  it('one tenant may hold two secrets (its side of a rotation)', () => {
    const rotated = PagerDutySecretRing.of([
      ['acme', ACME],
      ['acme', 'acme-next-webhook-secret-0123456'],
    ]);
    expect(rotated.tenantOf(body, pagerDutySignature(body, 'acme-next-webhook-secret-0123456'))).toBe('acme');
    expect(rotated.tenants).toEqual(['acme']);
  });

  it('property: a signature verifies its exact bytes only; any changed byte is refused', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, at, flip) => {
          const signature = pagerDutySignature(bytes, ACME);
          expect(ring.tenantOf(bytes, signature)).toBe('acme');
          const changed = Uint8Array.from(bytes);
          changed[at % bytes.length] = changed[at % bytes.length]! ^ flip;
          expect(ring.tenantOf(changed, signature)).toBeNull();
        },
      ),
      { numRuns: 100 },
    );
  });
});
