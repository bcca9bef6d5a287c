import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ApiDatabase } from '../api-database.port.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { NotFoundError } from '../http/api-errors.js';
import { API_DATABASE, TENANT_QUOTAS } from '../tokens.js';
import { EVENTS_PER_UNIT } from '../quota/read-cost.js';
import type { TenantQuotas } from '../quota/tenant-quotas.js';
import { parseAuditQuery } from './audit-query.js';
import { auditStore, type ChainReport, type InterventionDetail } from './audit-store.js';
import { interventionsCsv } from './interventions-csv.js';
import { parseVerifyQuery } from './verify-query.js';

/** Read-only audit API; every read runs under the caller's tenant row-level security. */
@Controller('v1')
export class AuditController {
  constructor(
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(TENANT_QUOTAS) private readonly quotas: TenantQuotas,
  ) {}

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
  async verify(@AuthenticatedTenant() tenant: string, @Query() rawQuery: unknown): Promise<ChainReport> {
    const query = parseVerifyQuery(rawQuery);
    const report = await this.db.tenants.read(tenant, (session) => auditStore.verify(session, tenant, query));
    // The page was charged before it ran (read-cost.ts); an anchor check's events are known only now.
    const events = report.anchorFacts?.events?.count ?? 0;
    this.quotas.chargeRead(tenant, Math.ceil(events / EVENTS_PER_UNIT));
    return report;
  }

  @Get('audit/interventions/:id')
  async intervention(@AuthenticatedTenant() tenant: string, @Param('id') id: string): Promise<InterventionDetail> {
    const found = await this.db.tenants.read(tenant, (session) => auditStore.intervention(session, id));
    if (!found) throw new NotFoundError(`no intervention ${id}`);
    return found;
  }
}
