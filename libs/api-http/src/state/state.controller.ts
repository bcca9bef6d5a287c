import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import type { ApiDatabase } from '../api-database.port.js';
import { auditStore, type FailureStateRecord } from '../audit/audit-store.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { NotFoundError } from '../http/api-errors.js';
import { API_DATABASE } from '../tokens.js';
import { listFailureStates, type FailureStatePage } from './state-list.js';
import { parseStateQuery } from './state-query.js';

/** The tenant's failure states, listed or one by key; reads run under the tenant's row-level security. */
@Controller('v1/state')
export class StateController {
  constructor(@Inject(API_DATABASE) private readonly db: ApiDatabase) {}

  @Get()
  list(@AuthenticatedTenant() tenant: string, @Query() rawQuery: unknown): Promise<FailureStatePage> {
    const query = parseStateQuery(rawQuery);
    return this.db.tenants.read(tenant, (session) => listFailureStates(session, query));
  }

  @Get(':keyId')
  async one(@AuthenticatedTenant() tenant: string, @Param('keyId') keyId: string): Promise<FailureStateRecord> {
    const found = await this.db.tenants.read(tenant, (session) => auditStore.state(session, keyId));
    if (!found) throw new NotFoundError(`no failure state ${keyId}`);
    return found;
  }
}
