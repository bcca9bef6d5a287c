import type { SqlSession } from '../sql-database.js';
import type { InterventionRecord } from './intervention-record.js';
import { auditPageWhere } from './audit-page-where.js';
import {
  INTERVENTION_RECORD_COLUMNS,
  toInterventionRecord,
  type InterventionRecordRow,
} from './intervention-record-row.js';

/** Which interventions a page holds; null means "any". */
export interface InterventionFilter {
  /** Issued at or after this instant (ISO 8601). */
  readonly from: string | null;
  /** Issued before this instant (ISO 8601). */
  readonly to: string | null;
  readonly failureClass: string | null;
  readonly level: string | null;
  readonly tool: string | null;
  readonly principal: string | null;
  readonly run: string | null;
}

export interface AuditPageRequest {
  readonly filter: InterventionFilter;
  /** By audit-trail sequence: desc = newest first. */
  readonly order: 'asc' | 'desc';
  /** The page starts after this seq (in `order`); null for the first page. */
  readonly afterSeq: number | null;
  readonly limit: number;
}

export interface AuditPage {
  readonly items: InterventionRecord[];
  /** Whether rows follow the last item: its seq is where the next page starts. */
  readonly more: boolean;
}

/**
 * A page of the audit trail in seq order. No tenant predicate on purpose: run it in a session under
 * withTenant, whose row-level security is what isolates tenants (a missing filter cannot leak a row).
 */
export async function readAuditPage(session: SqlSession, request: AuditPageRequest): Promise<AuditPage> {
  const { where, params } = auditPageWhere(request);
  params.push(request.limit + 1);
  const { rows } = await session.query<InterventionRecordRow>(
    `SELECT ${INTERVENTION_RECORD_COLUMNS} FROM interventions ${where}
      ORDER BY interventions.seq ${request.order === 'asc' ? 'ASC' : 'DESC'} LIMIT $${params.length}`,
    params,
  );
  return { items: rows.slice(0, request.limit).map(toInterventionRecord), more: rows.length > request.limit };
}
