/** DI tokens: ports are injected by token, never by concrete class (hexagonal shell). */
export const GOVERNANCE_POLICY = Symbol('GOVERNANCE_POLICY');
export const LOGGER = Symbol('LOGGER');
export const API_DATABASE = Symbol('API_DATABASE');
export const AGENT_EVENT_PUBLISHER = Symbol('AGENT_EVENT_PUBLISHER');
export const CLOCK = Symbol('CLOCK');
export const API_KEY_RING = Symbol('API_KEY_RING');
export const DASHBOARD_SESSIONS = Symbol('DASHBOARD_SESSIONS');
export const DASHBOARD_HUB = Symbol('DASHBOARD_HUB');
export const LIVE_FEED = Symbol('LIVE_FEED');
export const PAGERDUTY_WEBHOOK_SECRETS = Symbol('PAGERDUTY_WEBHOOK_SECRETS');
export const TENANT_QUOTAS = Symbol('TENANT_QUOTAS');
export const BUDGET_PUBLISHER = Symbol('BUDGET_PUBLISHER');
export const SPEND_LEDGER = Symbol('SPEND_LEDGER');
