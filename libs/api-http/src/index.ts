/** The HTTP API as a Nest application (Fastify): ingest, preflight, audit, resolutions, OpenAPI. */
export { createApiApp } from './api-app.js';
export type { ApiModuleOptions } from './api.module.js';
export { loadApiConfig, loadApiSettings, type ApiConfig, type ApiSettings } from './api-config.js';
export type { QuotaSettings } from './quota/tenant-quotas.js';
export type { ApiDatabase, StateReader, TenantScope } from './api-database.port.js';
export { apiDatabase } from './api-database.js';
export { parseApiKeys, ApiKeyRing, MIN_API_KEY_CHARS } from './auth/api-keys.js';
export { parsePagerDutyWebhookSecrets, PAGERDUTY_SECRETS_VARIABLE } from './auth/pagerduty-webhook-secrets.js';
export { KafkaAgentEventPublisher } from './ingest/kafka-agent-event-publisher.js';
export type { AgentEventPublisher } from './ingest/agent-event-publisher.port.js';
export { auditStore } from './audit/audit-store.js';
export { listFailureStates } from './state/state-list.js';
export { parseStateQuery } from './state/state-query.js';
export * from './openapi/api-schemas.js';
export { buildOpenApiDocument, renderOpenApiDocument } from './openapi/openapi-document.js';
export { OPENAPI_FILE } from './openapi/openapi-file.js';
export * from './wire.js';
export { KafkaLiveFeed } from './dashboard/kafka-live-feed.js';
export { liveSignalOf, type LiveSignal } from './dashboard/live-signal.js';
export type { LiveFeed } from './dashboard/live-feed.port.js';
export { DASHBOARD_DIST } from './dashboard/dashboard-assets.js';
/** The API's Prometheus metrics (deploy/prometheus/alerts.yml names them; its spec reads this registry). */
export { ApiMetrics } from './api-metrics.js';
export type { BudgetPublisher } from './spend/budget-publisher.port.js';
