import { RouteConfig } from '@nestjs/platform-fastify';

const SIGNED_WEBHOOK = 'tokencircuitSignedWebhook';

/**
 * Marks a route as a webhook that authenticates by a signature over its raw body instead of an API key: the
 * API-key hook is not installed on it, and the body arrives as the exact bytes received (a Buffer), which the
 * handler verifies before it parses them (jsonBodyOf). Body size and media type rules still apply.
 */
export const SignedWebhook = (): MethodDecorator => RouteConfig({ [SIGNED_WEBHOOK]: true });

export function isSignedWebhookRoute(config: unknown): boolean {
  return typeof config === 'object' && config !== null && (config as Record<string, unknown>)[SIGNED_WEBHOOK] === true;
}
