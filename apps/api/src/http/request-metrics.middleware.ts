import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiMetrics } from '../api-metrics.js';

/**
 * Counts every answered request by route pattern (never the raw path: ids in paths would explode the
 * label set), method and status, including requests refused by middleware before any route matched.
 */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(@Inject(ApiMetrics) private readonly metrics: ApiMetrics) {}

  use(request: Request, response: Response, next: NextFunction): void {
    response.once('finish', () => {
      this.metrics.requests.inc({
        route: routeLabel(request),
        method: request.method,
        status: String(response.statusCode),
      });
    });
    next();
  }
}

/**
 * Nest mounts middleware as routes too: a request refused by the API-key middleware carries the
 * controller's path with a trailing slash ("/v1/events/"), and one that matched nothing the
 * catch-all "/{*splat}". Both are folded into the route they belong to.
 */
function routeLabel(request: Request): string {
  const pattern = (request.route as { path?: string } | undefined)?.path;
  if (!pattern || pattern.includes('{*')) return 'unmatched';
  const route = `${request.baseUrl}${pattern}`;
  return route.length > 1 && route.endsWith('/') ? route.slice(0, -1) : route;
}
