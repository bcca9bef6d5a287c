import type { onRequestHookHandler } from 'fastify';
import { UnauthenticatedError } from '../http/api-errors.js';
import { presentedKey, type ApiKeyRing } from './api-keys.js';
import { setRequestTenant } from './request-tenant.js';

/**
 * Resolves the caller's tenant from its API key in Fastify's onRequest phase, before the body is read
 * or parsed: an unauthenticated request never costs a parse. Synchronous (no promise per request).
 */
export function apiKeyHook(keys: ApiKeyRing): onRequestHookHandler {
  return function resolveTenant(request, _reply, done) {
    const key = presentedKey(request.headers);
    if (key === null) {
      done(new UnauthenticatedError('an API key is required: Authorization: Bearer <key> or x-api-key: <key>'));
      return;
    }
    const tenant = keys.tenantOf(key);
    if (tenant === null) {
      done(new UnauthenticatedError('unknown API key'));
      return;
    }
    setRequestTenant(request, tenant);
    done();
  };
}
