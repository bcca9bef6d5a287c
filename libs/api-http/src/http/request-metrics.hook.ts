import type { onResponseHookHandler } from 'fastify';
import type { ApiMetrics } from '../api-metrics.js';

/**
 * Counts every answered request by route pattern (never the raw path: ids in paths would explode the
 * label set), method and status, including requests refused by a hook before the handler ran. A request
 * that matched no route has no pattern and is counted as "unmatched".
 */
export function requestMetricsHook(metrics: ApiMetrics): onResponseHookHandler {
  return function countRequest(request, reply, done) {
    metrics.requests.inc({
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    });
    done();
  };
}
