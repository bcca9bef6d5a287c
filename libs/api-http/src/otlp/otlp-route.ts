import { RouteConfig } from '@nestjs/platform-fastify';

const OTLP_ROUTE = 'tokencircuitOtlp';

/**
 * Marks an OTLP/HTTP route: authenticated by API key like every tenant route, but its body is OTLP
 * (application/x-protobuf or application/json, identity or gzip) and arrives as the bytes received (a
 * Buffer), which the handler decompresses and decodes under the same size cap (otlp-body.ts).
 */
export const OtlpRoute = (): MethodDecorator => RouteConfig({ [OTLP_ROUTE]: true });

export function isOtlpRoute(config: unknown): boolean {
  return typeof config === 'object' && config !== null && (config as Record<string, unknown>)[OTLP_ROUTE] === true;
}
