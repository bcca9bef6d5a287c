import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header PagerDuty signs deliveries in: `v1=<hex>`, several comma-separated while a secret rotates. */
export const PAGERDUTY_SIGNATURE_HEADER = 'x-pagerduty-signature';

const V1 = /^v1=([0-9a-f]{64})$/i;

/** The v1 signatures of the header (SHA-256 HMACs, 32 bytes each); other versions and junk are skipped. */
export function v1Signatures(header: string | readonly string[] | undefined): Buffer[] {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  return values
    .flatMap((value) => value.split(','))
    .map((part) => V1.exec(part.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Buffer.from(match[1]!, 'hex'));
}

/** `v1=` + hex HMAC-SHA256 of the raw body with the secret: what PagerDuty sends, for tests and tools. */
export function pagerDutySignature(rawBody: Uint8Array, secret: string): string {
  return `v1=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

interface SecretEntry {
  readonly tenant: string;
  readonly secret: string;
}

/**
 * The tenants' PagerDuty webhook secrets: one webhook subscription per tenant, so the secret that signed a
 * delivery names its tenant. Every secret is tried against every signature with timingSafeEqual, without
 * stopping at a match, so the answer time says nothing about which secret (or how much of one) matched.
 */
export class PagerDutySecretRing {
  private constructor(private readonly entries: readonly SecretEntry[]) {}

  static of(pairs: ReadonlyArray<readonly [tenant: string, secret: string]>): PagerDutySecretRing {
    return new PagerDutySecretRing(pairs.map(([tenant, secret]) => ({ tenant, secret })));
  }

  get configured(): boolean {
    return this.entries.length > 0;
  }

  get tenants(): readonly string[] {
    return [...new Set(this.entries.map((e) => e.tenant))];
  }

  /** The tenant whose secret signed exactly these bytes, or null (no valid signature: refuse the delivery). */
  tenantOf(rawBody: Uint8Array, header: string | readonly string[] | undefined): string | null {
    const signatures = v1Signatures(header);
    let tenant: string | null = null;
    for (const entry of this.entries) {
      const expected = createHmac('sha256', entry.secret).update(rawBody).digest();
      for (const signature of signatures) {
        if (timingSafeEqual(expected, signature)) tenant = entry.tenant;
      }
    }
    return tenant;
  }
}
