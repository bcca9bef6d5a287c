import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tokencircuit/config';
import { pagerDutySignature } from '@tokencircuit/integrations';
import { parsePagerDutyWebhookSecrets } from './pagerduty-webhook-secrets.js';

const problemsOf = (raw: string): string[] => {
  try {
    parsePagerDutyWebhookSecrets(raw);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
};

describe('TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS', () => {
  it('unset or empty: no tenant, the route stays off', () => {
    expect(parsePagerDutyWebhookSecrets(undefined).configured).toBe(false);
    expect(parsePagerDutyWebhookSecrets('  ').configured).toBe(false);
  });

  it('maps each secret to its tenant; a tenant may hold two while rotating', () => {
    const ring = parsePagerDutyWebhookSecrets(
      'acme:acme-secret-0123456789, acme:acme-next-0123456789,globex:globex-secret-0123456789',
    );
    expect(ring.tenants).toEqual(['acme', 'globex']);
    const body = Buffer.from('{}');
    expect(ring.tenantOf(body, pagerDutySignature(body, 'acme-next-0123456789'))).toBe('acme');
    expect(ring.tenantOf(body, pagerDutySignature(body, 'globex-secret-0123456789'))).toBe('globex');
  });

  it('refuses bad entries at start, naming the entry and tenant but never the secret', () => {
    const problems = problemsOf(
      'acme, bad tenant:x-secret-0123456789, acme:short, acme:shared-secret-0123456, globex:shared-secret-0123456',
    );
    expect(problems).toEqual([
      expect.stringMatching(/entry 1: must be tenant:secret/),
      expect.stringMatching(/entry 2: tenant must be/),
      expect.stringMatching(/entry 3 \(tenant "acme"\): the secret must be at least 16 characters/),
      expect.stringMatching(/entry 5 \(tenant "globex"\): the same secret is already given to tenant "acme"/),
    ]);
    expect(problems.join('\n')).not.toMatch(/shared-secret|x-secret|short/);
  });
});
