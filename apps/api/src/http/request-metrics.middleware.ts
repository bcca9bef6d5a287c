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
      const pattern = (request.route as { path?: string } | undefined)?.path;
      const route = pattern ? `${request.baseUrl}${pattern}` : 'unmatched';
      this.metrics.requests.inc({ route, method: request.method, status: String(response.statusCode) });
    });
    next();
  }
}
