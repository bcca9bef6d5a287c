import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '@tokencircuit/config';

/** Shorter keys are guessable; 16 characters of a random key is the floor we accept at start-up. */
export const MIN_API_KEY_CHARS = 16;

interface KeyEntry {
  readonly tenant: string;
  readonly digest: Buffer;
}

/**
 * The tenants' API keys, held only as sha256 digests. Lookup hashes the presented key and compares it
 * with every digest using timingSafeEqual, without stopping at the first match, so the response time
 * says nothing about which key (or how much of one) matched.
 */
export class ApiKeyRing {
  private constructor(private readonly entries: readonly KeyEntry[]) {}

  static of(pairs: ReadonlyArray<readonly [tenant: string, key: string]>): ApiKeyRing {
    return new ApiKeyRing(pairs.map(([tenant, key]) => ({ tenant, digest: digestOf(key) })));
  }

  /** The tenant owning `presented`, or null for an unknown key. */
  tenantOf(presented: string): string | null {
    const digest = digestOf(presented);
    let tenant: string | null = null;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest)) tenant = entry.tenant;
    }
    return tenant;
  }

  get tenants(): readonly string[] {
    return [...new Set(this.entries.map((e) => e.tenant))];
  }
}

const digestOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

const TENANT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Parses TOKENCIRCUIT_API_KEYS ("tenant:key,tenant2:key2"). A tenant may hold several keys (rotation);
 * one key may not serve two tenants. Problems name the entry and tenant, never the key itself.
 */
export function parseApiKeys(raw: string | undefined): ApiKeyRing {
  const variable = 'TOKENCIRCUIT_API_KEYS';
  if (raw === undefined || raw.trim() === '') {
    throw new ConfigError([
      `${variable}: is required: "tenant:key,tenant2:key2" with keys of at least ${MIN_API_KEY_CHARS} characters (not set)`,
    ]);
  }
  const problems: string[] = [];
  const pairs: Array<[string, string]> = [];
  const owners = new Map<string, string>();
  raw.split(',').forEach((part, index) => {
    const where = `${variable}: entry ${index + 1}`;
    const entry = part.trim();
    const colon = entry.indexOf(':');
    if (colon < 0) {
      problems.push(`${where}: must be tenant:key`);
      return;
    }
    const tenant = entry.slice(0, colon).trim();
    const key = entry.slice(colon + 1).trim();
    if (!TENANT.test(tenant)) {
      problems.push(`${where}: tenant must be 1-128 of [A-Za-z0-9._-] starting with a letter or digit`);
      return;
    }
    if (key.length < MIN_API_KEY_CHARS) {
      problems.push(
        `${where} (tenant "${tenant}"): key has ${key.length} characters; at least ${MIN_API_KEY_CHARS} are required`,
      );
      return;
    }
    if (/\s/.test(key)) {
      problems.push(`${where} (tenant "${tenant}"): key must not contain whitespace`);
      return;
    }
    const owner = owners.get(key);
    if (owner !== undefined && owner !== tenant) {
      problems.push(`${where} (tenant "${tenant}"): the same key is already given to tenant "${owner}"`);
      return;
    }
    owners.set(key, tenant);
    pairs.push([tenant, key]);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return ApiKeyRing.of(pairs);
}

/** The key of `Authorization: Bearer <key>` or `x-api-key: <key>`; null when neither is present. */
export function presentedKey(headers: {
  authorization?: string | undefined;
  'x-api-key'?: string | string[] | undefined;
}): string | null {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match) return match[1]!;
  }
  const header = headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && value.trim() !== '' ? value.trim() : null;
}
