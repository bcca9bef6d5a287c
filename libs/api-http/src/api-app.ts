import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ApiMetrics } from './api-metrics.js';
import { ApiModule, type ApiModuleOptions } from './api.module.js';
import { serveDashboard } from './dashboard/dashboard-assets.js';
import type { DashboardSessions } from './dashboard/dashboard-sessions.js';
import { installHttpHooks } from './http/http-hooks.js';
import { DASHBOARD_SESSIONS, TENANT_QUOTAS } from './tokens.js';
import { quotaSettingsOf, type TenantQuotas } from './quota/tenant-quotas.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

/**
 * Creates (does not listen) the API app for any host: main.ts, the embedded mode, the e2e specs.
 * Fastify rather than Express: the per-request garbage of Express, body-parser and Nest's per-route
 * middleware drove preflight's p99 (young-generation GC pauses; docs/benchmarks.md "Preflight").
 * Nest's body parser is off because the API parses JSON itself, with its own limit and errors.
 */
export async function createApiApp(options: ApiModuleOptions): Promise<NestFastifyApplication> {
  const { API_REQUEST_TIMEOUT_MS: requestTimeout } = quotaSettingsOf(options.config);
  const adapter = new FastifyAdapter({
    bodyLimit: options.config.API_MAX_BODY_BYTES,
    // A whole request (headers and body) must arrive within this, or Node answers 408 and closes the
    // connection. Node only enforces it when headersTimeout (60 s by default) is not longer (measured on
    // Node 20: a trickled body was cut at 60 s otherwise), and checks at connectionsCheckingInterval.
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: Math.min(60_000, requestTimeout),
      connectionsCheckingInterval: Math.min(1_000, Math.floor(requestTimeout / 2)),
    },
    // Express' routing, kept: case-insensitive, a trailing slash ignored, path parameters of any length.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 8 * 1024 },
  });
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(options), adapter, {
    bodyParser: false,
    logger: false,
  });
  // Before Nest registers its routes (at init), so the per-route hooks reach every /v1 route.
  const metrics = app.get(ApiMetrics);
  installHttpHooks(app.getHttpAdapter().getInstance(), {
    keys: options.config.apiKeys,
    maxBodyBytes: options.config.API_MAX_BODY_BYTES,
    metrics,
    sessions: app.get<symbol, DashboardSessions>(DASHBOARD_SESSIONS),
    quotas: app.get<symbol, TenantQuotas>(TENANT_QUOTAS),
  });
  await serveDashboard(app);
  // The document is built from the zod schemas, not from decorators: one source for validation and docs.
  SwaggerModule.setup('docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  return app;
}
