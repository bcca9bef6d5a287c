import type { FastifyInstance, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { ApiMetrics } from '../api-metrics.js';
import { apiKeyHook } from '../auth/api-key.hook.js';
import type { ApiKeyRing } from '../auth/api-keys.js';
import type { DashboardSessions } from '../dashboard/dashboard-sessions.js';
import { InvalidRequestError } from './api-errors.js';
import { JSON_MEDIA_TYPES, jsonBodyRulesHook, parseJsonBody } from './json-body.js';
import { requestMetricsHook } from './request-metrics.hook.js';
import { isSignedWebhookRoute } from './signed-webhook.js';
import { otlpBodyRulesHook, PROTOBUF_MEDIA_TYPE } from '../otlp/otlp-body.js';
import { isOtlpRoute } from '../otlp/otlp-route.js';

/** Every route under this prefix belongs to a tenant and needs its API key; health, metrics and docs do not. */
export const TENANT_ROUTE_PREFIX = '/v1/';

export interface HttpHookOptions {
  readonly keys: ApiKeyRing;
  readonly sessions: DashboardSessions;
  readonly maxBodyBytes: number;
  readonly metrics: ApiMetrics;
  /** Per-tenant quotas (quota/tenant-quotas.ts): the hook of "METHOD /route", run before the route's handler. */
  readonly quotas: { hookFor(method: string, url: string): preHandlerHookHandler | undefined };
}

/**
 * The API's HTTP pipeline as Fastify hooks, attached once: the tenant routes get the API-key and body
 * rules as route-level onRequest hooks (so health, docs and unmatched paths never run them, and no
 * request walks a list of path checks), every request is counted on response, and JSON is the only
 * body Fastify parses. Must run before the routes are registered.
 */
export function installHttpHooks(fastify: FastifyInstance, options: HttpHookOptions): void {
  const bodyRules = jsonBodyRulesHook(options.maxBodyBytes);
  const tenantHooks: onRequestHookHandler[] = [apiKeyHook(options.keys, options.sessions), bodyRules];
  fastify.addHook('onRoute', (route) => {
    if (!route.url.startsWith(TENANT_ROUTE_PREFIX)) return;
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    // A signed webhook proves its tenant by the signature over its body, which the handler checks.
    if (isSignedWebhookRoute(route.config)) {
      route.onRequest = [bodyRules, ...own];
      return;
    }
    // OTLP: the API key as everywhere, then OTLP's own media types and codings (otlp-body.ts).
    if (isOtlpRoute(route.config)) {
      route.onRequest = [tenantHooks[0]!, otlpBodyRulesHook(options.maxBodyBytes), ...own];
      return;
    }
    // Authenticate first, so an unauthenticated body is never read, then check what the body declares.
    route.onRequest = [...tenantHooks, ...own];
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const quota = methods.map((method) => options.quotas.hookFor(method, route.url)).find((hook) => hook);
    if (quota) {
      const ownPre =
        route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      route.preHandler = [quota, ...ownPre];
    }
  });
  fastify.addHook('onRequest', refuseNulInPath);
  fastify.addHook('onResponse', requestMetricsHook(options.metrics));
  fastify.removeAllContentTypeParsers();
  for (const type of JSON_MEDIA_TYPES) {
    // Read as bytes and decoded here exactly as Fastify's parseAs 'string' does (UTF-8, once, at the end), so a
    // signed webhook can get the very bytes its signature covers.
    fastify.addContentTypeParser(
      type,
      { parseAs: 'buffer', bodyLimit: options.maxBodyBytes },
      (request, body, done) => {
        if (isSignedWebhookRoute(request.routeOptions.config) || isOtlpRoute(request.routeOptions.config))
          done(null, body);
        else parseJsonBody(request, (body as Buffer).toString('utf8'), done);
      },
    );
  }
  // Only OTLP routes take protobuf; anywhere else the media-type rules refuse it before the body is read.
  fastify.addContentTypeParser(
    PROTOBUF_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: options.maxBodyBytes },
    (_request, body, done) => done(null, body),
  );
}

/**
 * A path or query that decodes to U+0000 names nothing: no route id or filter can hold it (Postgres text
 * refuses it, which surfaced as a 500) and the static files under /docs are read through the file system,
 * which throws on it. Refused for every route in one place, before routing.
 */
const refuseNulInPath: onRequestHookHandler = function refuseNulInPath(request, _reply, done) {
  const query = request.url.indexOf('?');
  const path = query < 0 ? request.url : request.url.slice(0, query);
  if (NUL.test(path)) {
    done(new InvalidRequestError('invalid_path', '(path)', 'the path must not contain U+0000 (%00)'));
    return;
  }
  if (query >= 0 && NUL.test(request.url.slice(query))) {
    done(new InvalidRequestError('invalid_query', '(query)', 'the query must not contain U+0000 (%00)'));
    return;
  }
  done();
};

// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const NUL = /%00|\u0000/i;
