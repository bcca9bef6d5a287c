import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ApiDatabase } from '../api-database.port.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { NotFoundError } from '../http/api-errors.js';
import { API_DATABASE } from '../tokens.js';
import { parseAuditQuery } from './audit-query.js';
import { auditStore, type ChainReport, type InterventionDetail } from './audit-store.js';
import { interventionsCsv } from './interventions-csv.js';
import { parseVerifyQuery } from './verify-query.js';

/** Read-only audit API; every read runs under the caller's tenant row-level security. */
@Controller('v1')
export class AuditController {
  constructor(@Inject(API_DATABASE) private readonly db: ApiDatabase) {}

  @Get('audit/interventions')
  async list(
    @AuthenticatedTenant() tenant: string,
    @Query() rawQuery: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const query = parseAuditQuery(rawQuery);
    const page = await this.db.tenants.read(tenant, (session) => auditStore.interventions(session, query));
    if (query.format === 'json') return page;
    if (page.nextCursor !== null) reply.header('x-next-cursor', page.nextCursor);
    reply.header('content-type', 'text/csv; charset=utf-8; header=present');
    reply.header('content-disposition', 'attachment; filename="interventions.csv"');
    return interventionsCsv(page.items);
  }

  @Get('audit/verify')
  verify(@AuthenticatedTenant() tenant: string, @Query() rawQuery: unknown): Promise<ChainReport> {
    const query = parseVerifyQuery(rawQuery);
    return this.db.tenants.read(tenant, (session) => auditStore.verify(session, tenant, query));
  }

  @Get('audit/interventions/:id')
  async intervention(@AuthenticatedTenant() tenant: string, @Param('id') id: string): Promise<InterventionDetail> {
    const found = await this.db.tenants.read(tenant, (session) => auditStore.intervention(session, id));
    if (!found) throw new NotFoundError(`no intervention ${id}`);
    return found;
  }
}
