import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import {
  chainRowAt,
  readAuditPage,
  readChainTip,
  readEventsById,
  readFailureState,
  readIntervention,
  tenantEventsHead,
  verifyTenantChain,
  type CausingEvent,
  type ChainHead,
  type ChainTip,
  type ChainVerification,
  type EventsHead,
  type FailureStateRecord,
  type InterventionRecord,
  type SqlSession,
} from '@tokencircuit/storage';
import type { VerifyQuery } from './verify-query.js';
import { encodeCursor } from './audit-cursor.js';
import type { AuditQuery } from './audit-query.js';

// The record shapes are storage's (one definition the API, the dashboard and the CLI share).
export type { CausingEvent, FailureStateRecord, InterventionRecord } from '@tokencircuit/storage';

export interface InterventionPage {
  readonly items: InterventionRecord[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

export interface InterventionDetail extends InterventionRecord {
  readonly artifact: DiagnosticArtifact;
  readonly causingEvents: CausingEvent[];
}

export interface ChainReport {
  readonly tenant: string;
  readonly result: ChainVerification;
  /** The newest row: keep its hash outside the database to detect a truncated tail later. */
  readonly head: ChainTip | null;
  /** Only when anchor positions were asked for (anchorSeq, eventsThrough): what the trail holds there now. */
  readonly anchorFacts?: {
    readonly chainAtAnchor?: ChainHead | null;
    readonly events?: EventsHead;
  };
}

/**
 * The audit reads. Every function takes a session opened by TenantScope.read, i.e. under the
 * tenant's row-level security: none of them filters by tenant itself, so another tenant's id simply
 * finds nothing.
 */
export const auditStore = {
  async interventions(session: SqlSession, query: AuditQuery): Promise<InterventionPage> {
    const page = await readAuditPage(session, {
      filter: query.filter,
      order: query.order,
      afterSeq: query.after?.seq ?? null,
      limit: query.limit,
    });
    const last = page.items.at(-1);
    return {
      items: page.items,
      nextCursor: page.more && last ? encodeCursor({ seq: last.seq, order: query.order }) : null,
    };
  },

  async intervention(session: SqlSession, id: string): Promise<InterventionDetail | null> {
    const found = await readIntervention(session, id);
    if (!found) return null;
    // The intervention's own tenant says whose its causing events are (ids are unique per tenant).
    return { ...found, causingEvents: await readEventsById(session, found.tenant, found.causingEventIds) };
  },

  state: (session: SqlSession, keyId: string): Promise<FailureStateRecord | null> => readFailureState(session, keyId),

  /** Verifies the tenant's whole chain in seq order, a page at a time, so memory stays bounded. */
  async verify(
    session: SqlSession,
    tenant: string,
    anchor: VerifyQuery = { anchorSeq: null, eventsThrough: null },
    pageSize = 1000,
  ): Promise<ChainReport> {
    const result = await verifyTenantChain(session, tenant, { pageSize });
    const head = await readChainTip(session);
    if (anchor.anchorSeq === null && anchor.eventsThrough === null) return { tenant, result, head };
    return {
      tenant,
      result,
      head,
      anchorFacts: {
        ...(anchor.anchorSeq === null ? {} : { chainAtAnchor: await chainRowAt(session, tenant, anchor.anchorSeq) }),
        ...(anchor.eventsThrough === null
          ? {}
          : { events: await tenantEventsHead(session, tenant, anchor.eventsThrough, pageSize) }),
      },
    };
  },
};
