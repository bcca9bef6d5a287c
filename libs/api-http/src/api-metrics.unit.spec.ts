import { describe, expect, it } from 'vitest';
import { ApiMetrics } from './api-metrics.js';
import { loadApiSettings } from './api-config.js';

// /metrics answers without authentication: tenant names (customers' names) are labels only when asked for.
describe('ApiMetrics: tenant labels are optional', () => {
  const refusals = async (metrics: ApiMetrics) => {
    metrics.quotaRefusals.inc({ quota: 'preflight', tenant: 'acme-corp' });
    const text = await metrics.registry.metrics();
    return text.split('\n').filter((line) => line.startsWith('tokencircuit_api_quota_refusals_total'));
  };

  it('counts refusals by quota alone by default: no tenant name on /metrics', async () => {
    expect(await refusals(new ApiMetrics())).toEqual(['tokencircuit_api_quota_refusals_total{quota="preflight"} 1']);
  });

  it('labels them by tenant with tenantLabels', async () => {
    expect(await refusals(new ApiMetrics({ tenantLabels: true }))).toEqual([
      'tokencircuit_api_quota_refusals_total{quota="preflight",tenant="acme-corp"} 1',
    ]);
  });

  it('API_METRICS_TENANT_LABELS is off unless set, and refused when it is not a boolean', () => {
    expect(loadApiSettings({}).API_METRICS_TENANT_LABELS).toBe(false);
    expect(loadApiSettings({ API_METRICS_TENANT_LABELS: 'true' }).API_METRICS_TENANT_LABELS).toBe(true);
    expect(() => loadApiSettings({ API_METRICS_TENANT_LABELS: 'maybe' })).toThrow(/API_METRICS_TENANT_LABELS/);
  });
});
