import type { ApiMetrics } from '../api-metrics.js';
import { TooManyRequestsError } from '../http/api-errors.js';
import type { DashboardSessionSettings } from './dashboard-sessions.js';

/** The 429 of a tenant that signs in (or mints login links) faster than its sign-in quota; counted in /metrics. */
export function signInRefused(
  metrics: ApiMetrics,
  tenant: string,
  retryAfterMs: number,
  settings: DashboardSessionSettings,
): TooManyRequestsError {
  metrics.quotaRefusals.inc({ quota: 'dashboard_sign_in', tenant });
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new TooManyRequestsError(
    'dashboard_sign_in',
    seconds,
    `the tenant's dashboard sign-in quota (${settings.signInsPerMinute}/min, bursts of ${settings.signInBurst}) is spent: retry after ${seconds} s`,
  );
}
