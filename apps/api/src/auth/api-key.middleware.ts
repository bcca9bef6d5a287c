import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { UnauthenticatedError } from '../http/api-errors.js';
import { API_KEY_RING } from '../tokens.js';
import { presentedKey, type ApiKeyRing } from './api-keys.js';
import { setRequestTenant } from './request-tenant.js';

/**
 * Resolves the caller's tenant from its API key before anything else runs: it is a middleware (not a
 * guard) so that an unauthenticated request is refused before its body is read and parsed.
 */
@Injectable()
export class ApiKeyMiddleware implements NestMiddleware {
  constructor(@Inject(API_KEY_RING) private readonly keys: ApiKeyRing) {}

  use(request: Request, _response: Response, next: NextFunction): void {
    const key = presentedKey(request.headers);
    if (key === null)
      throw new UnauthenticatedError('an API key is required: Authorization: Bearer <key> or x-api-key: <key>');
    const tenant = this.keys.tenantOf(key);
    if (tenant === null) throw new UnauthenticatedError('unknown API key');
    setRequestTenant(request, tenant);
    next();
  }
}
