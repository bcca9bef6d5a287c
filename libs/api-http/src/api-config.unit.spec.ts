import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tokencircuit/config';
import { loadApiConfig, loadApiSettings } from './api-config.js';

const valid = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  TOKENCIRCUIT_API_KEYS: 'acme:acme-key-0123456789',
};

describe('API configuration', () => {
  it('defaults what it can: port 8080 on 127.0.0.1, the product topic, a 4 MiB body cap', () => {
    const config = loadApiConfig(valid);
    expect(config).toMatchObject({
      API_HTTP_PORT: 8080,
      API_HTTP_HOST: '127.0.0.1',
      AGENT_EVENTS_TOPIC: 'tokencircuit.agent-events.v1',
      API_MAX_BODY_BYTES: 4 * 1024 * 1024,
      LOG_LEVEL: 'info',
      API_PREFLIGHT_PER_SECOND: 2_000,
      API_PREFLIGHT_BURST: 4_000,
      API_INGEST_EVENTS_PER_SECOND: 2_000,
      API_INGEST_BURST_EVENTS: 10_000,
    });
    expect(config.apiKeys.tenantOf('acme-key-0123456789')).toBe('acme');
    expect(config.kafka.brokers).toEqual(['127.0.0.1:19092']);
  });

  it('reports every problem at once, and never repeats an API key in its message', () => {
    let error: unknown;
    try {
      loadApiConfig({
        API_HTTP_PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        TOKENCIRCUIT_API_KEYS: 'acme:leaky-but-short',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.some((p) => p.startsWith('DATABASE_URL:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('API_HTTP_PORT:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('TOKENCIRCUIT_API_KEYS: entry 1 (tenant "acme")'))).toBe(true);
    expect(problems.some((p) => p.startsWith('KAFKA_BROKERS:'))).toBe(true);
    expect((error as Error).message).not.toContain('leaky-but-short');
  });

  it('reads the per-tenant quotas and refuses an ingest burst that could never admit a full batch', () => {
    expect(loadApiConfig({ ...valid, API_PREFLIGHT_PER_SECOND: '50', API_INGEST_BURST_EVENTS: '500' })).toMatchObject({
      API_PREFLIGHT_PER_SECOND: 50,
      API_INGEST_BURST_EVENTS: 500,
    });
    for (const [variable, value] of [
      ['API_INGEST_BURST_EVENTS', '499'],
      ['API_PREFLIGHT_PER_SECOND', '0'],
      ['API_PREFLIGHT_BURST', 'lots'],
      ['API_INGEST_EVENTS_PER_SECOND', '-5'],
    ]) {
      expect(() => loadApiConfig({ ...valid, [variable!]: value }), variable).toThrow(
        new RegExp(`${variable}: .*\\(got "${value}"\\)`),
      );
    }
  });

  it('reads the capacity settings of issue 28 and refuses what could never work', () => {
    expect(loadApiConfig(valid)).toMatchObject({
      API_READ_UNITS_PER_SECOND: 200,
      API_READ_BURST_UNITS: 2_000,
      API_PAGERDUTY_WEBHOOKS_PER_SECOND: 10,
      API_PAGERDUTY_WEBHOOK_BURST: 100,
      API_DASHBOARD_SESSIONS_PER_TENANT: 1_000,
      API_DASHBOARD_LOGIN_LINKS_PER_TENANT: 100,
      API_DASHBOARD_SIGN_INS_PER_MINUTE: 30,
      API_DASHBOARD_SIGN_IN_BURST: 30,
      API_REQUEST_TIMEOUT_MS: 30_000,
    });
    for (const [variable, value] of [
      // The burst must hold the dearest read (a full verification page with an anchor check), or it never passes.
      ['API_READ_BURST_UNITS', '1010'],
      ['API_READ_UNITS_PER_SECOND', '0'],
      ['API_DASHBOARD_SESSIONS_PER_TENANT', '0'],
      ['API_REQUEST_TIMEOUT_MS', '999'],
      ['API_REQUEST_TIMEOUT_MS', 'forever'],
    ]) {
      expect(() => loadApiConfig({ ...valid, [variable!]: value }), variable).toThrow(
        new RegExp(`${variable}: .*\\(got "${value}"\\)`),
      );
    }
  });

  it('reads how often leases write what they served, and refuses a period that is no period or holds writes for minutes', () => {
    expect(loadApiConfig(valid)).toMatchObject({ API_SPEND_LEASES: true, API_SPEND_LEASE_FLUSH_MS: 25 });
    expect(loadApiConfig({ ...valid, API_SPEND_LEASE_FLUSH_MS: '100' }).API_SPEND_LEASE_FLUSH_MS).toBe(100);
    for (const value of ['0', '4', '60000', 'often'])
      expect(() => loadApiConfig({ ...valid, API_SPEND_LEASE_FLUSH_MS: value }), value).toThrow(
        new RegExp(`API_SPEND_LEASE_FLUSH_MS: .*\\(got "${value}"\\)`),
      );
  });

  it('reads the PagerDuty webhook secrets in both the connected and the embedded loader, never echoing one', () => {
    const secrets = { TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS: 'acme:acme-pd-secret-0123456789' };
    expect(loadApiConfig(valid).pagerDutyWebhooks.configured).toBe(false);
    expect(loadApiConfig({ ...valid, ...secrets }).pagerDutyWebhooks.tenants).toEqual(['acme']);
    expect(loadApiSettings(secrets).pagerDutyWebhooks.tenants).toEqual(['acme']);
    let error: unknown;
    try {
      loadApiSettings({ TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS: 'acme:leaky', API_MAX_BODY_BYTES: 'x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      expect.stringMatching(/^API_MAX_BODY_BYTES/),
      expect.stringMatching(/TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS: entry 1 \(tenant "acme"\): the secret must be/),
    ]);
    expect(problems.join('\n')).not.toContain('leaky');
  });
});
