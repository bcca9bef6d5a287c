import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tokencircuit/config';
import { parseApiKeys, presentedKey } from './api-keys.js';

const problemsOf = (raw: string | undefined): readonly string[] => {
  try {
    parseApiKeys(raw);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('TOKENCIRCUIT_API_KEYS', () => {
  it('maps each key to its tenant, and a tenant may hold several keys for rotation', () => {
    const ring = parseApiKeys('acme:acme-key-0123456789, acme:acme-key-rotated-01 ,globex:globex-key-abcdefgh');
    expect(ring.tenantOf('acme-key-0123456789')).toBe('acme');
    expect(ring.tenantOf('acme-key-rotated-01')).toBe('acme');
    expect(ring.tenantOf('globex-key-abcdefgh')).toBe('globex');
    expect(ring.tenants).toEqual(['acme', 'globex']);
  });

  it('knows no tenant for an unknown key, a prefix of a key, or a key with a different case', () => {
    const ring = parseApiKeys('acme:acme-key-0123456789');
    expect(ring.tenantOf('acme-key-012345678')).toBeNull();
    expect(ring.tenantOf('ACME-KEY-0123456789')).toBeNull();
    expect(ring.tenantOf('')).toBeNull();
  });

  it('refuses to start without keys', () => {
    expect(problemsOf(undefined)[0]).toMatch(/^TOKENCIRCUIT_API_KEYS: is required/);
    expect(problemsOf('  ')[0]).toMatch(/^TOKENCIRCUIT_API_KEYS: is required/);
  });

  it('reports every bad entry at once, by position and tenant, without echoing any key', () => {
    const problems = problemsOf('acme:short,nocolon,:0123456789abcdef,globex:has space in it!,ok:0123456789abcdef');
    expect(problems).toEqual([
      'TOKENCIRCUIT_API_KEYS: entry 1 (tenant "acme"): key has 5 characters; at least 16 are required',
      'TOKENCIRCUIT_API_KEYS: entry 2: must be tenant:key',
      'TOKENCIRCUIT_API_KEYS: entry 3: tenant must be 1-128 of [A-Za-z0-9._-] starting with a letter or digit',
      'TOKENCIRCUIT_API_KEYS: entry 4 (tenant "globex"): key must not contain whitespace',
    ]);
    expect(problems.join('\n')).not.toContain('short');
  });

  it('refuses one key for two tenants: the key alone must decide the tenant', () => {
    expect(problemsOf('acme:shared-key-0123456789,globex:shared-key-0123456789')).toEqual([
      'TOKENCIRCUIT_API_KEYS: entry 2 (tenant "globex"): the same key is already given to tenant "acme"',
    ]);
  });
});

describe('presented key', () => {
  it('is read from Authorization: Bearer (any case of the scheme) or from x-api-key', () => {
    expect(presentedKey({ authorization: 'Bearer abc123' })).toBe('abc123');
    expect(presentedKey({ authorization: 'bearer   abc123 ' })).toBe('abc123');
    expect(presentedKey({ 'x-api-key': ' k-1 ' })).toBe('k-1');
    expect(presentedKey({ 'x-api-key': ['first', 'second'] })).toBe('first');
  });

  it('is absent for other schemes and empty values', () => {
    expect(presentedKey({})).toBeNull();
    expect(presentedKey({ authorization: 'Basic dXNlcjpwYXNz' })).toBeNull();
    expect(presentedKey({ authorization: 'Bearer' })).toBeNull();
    expect(presentedKey({ 'x-api-key': '   ' })).toBeNull();
  });
});
