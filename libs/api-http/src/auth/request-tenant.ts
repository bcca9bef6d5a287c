import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { UnauthenticatedError } from '../http/api-errors.js';

// A private symbol, so no header, query or body value can ever stand in for the authenticated tenant.
const TENANT = Symbol('tokencircuit.tenant');

type TenantCarrier = { [TENANT]?: string };

export function setRequestTenant(request: object, tenant: string): void {
  (request as TenantCarrier)[TENANT] = tenant;
}

/** The tenant the API key resolved to; a route reached without the API-key hook fails closed. */
export function requestTenant(request: object): string {
  const tenant = (request as TenantCarrier)[TENANT];
  if (tenant === undefined) throw new UnauthenticatedError('this route requires an API key');
  return tenant;
}

/** Controller parameter: the authenticated tenant (never taken from the request's own content). */
export const AuthenticatedTenant = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  requestTenant(context.switchToHttp().getRequest<object>()),
);
