import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import {
  chainRowAt,
  readAuditPage,
  readChainTip,
  readEventsById,
  readFailureState,
  readIntervention,
  readInterventionChain,
  tenantEventsHead,
  verifyChain,
  GENESIS,
  type CausingEvent,
  type ChainAnchor,
  type ChainedIntervention,
  type ChainHead,
  type ChainTip,
  type ChainVerification,
  type EventsHead,
  type FailureStateRecord,
  type InterventionRecord,
  type SqlSession,
} from '@tokencircuit/storage';
import { encodeVerifyCursor, VERIFY_PAGE_DEFAULT, type VerifyQuery } from './verify-query.js';
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
  /** This page's verdict: `checked` counts the rows of this page verified intact. */
  readonly result: ChainVerification;
  /** Pass as `cursor` to verify the next page; null when this page reached the head or found a break. */
  readonly next: string | null;
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

  /**
   * Verifies one page of the tenant's chain in seq order: at most `limit` rows after the cursor's row, starting
   * from the hash the previous page ended on (genesis without a cursor). Paged so one request's cost is bounded
   * (issue 28); a client verifies the whole chain by following `next` (`tokencircuit verify` does).
   */
  async verify(
    session: SqlSession,
    tenant: string,
    query: VerifyQuery = { after: null, limit: VERIFY_PAGE_DEFAULT, anchorSeq: null, eventsThrough: null },
  ): Promise<ChainReport> {
    const from = query.after ?? GENESIS;
    const rows = await readInterventionChain(session, tenant, { afterSeq: from.seq, limit: query.limit });
    const result = await verifyYielding(rows, from);
    const last = rows.at(-1);
    const next = result.ok && last && rows.length === query.limit ? encodeVerifyCursor(last) : null;
    const head = await readChainTip(session);
    if (query.anchorSeq === null && query.eventsThrough === null) return { tenant, result, next, head };
    return {
      tenant,
      result,
      next,
      head,
      anchorFacts: {
        ...(query.anchorSeq === null ? {} : { chainAtAnchor: await chainRowAt(session, tenant, query.anchorSeq) }),
        ...(query.eventsThrough === null
          ? {}
          : { events: await tenantEventsHead(session, tenant, query.eventsThrough, VERIFY_PAGE_DEFAULT) }),
      },
    };
  },
};

/** Rows hashed between two yields to the event loop (≈ 0.1 ms each: a few milliseconds of CPU at a time). */
const VERIFY_SLICE_ROWS = 50;

/**
 * verifyChain over the page, a slice at a time with a yield to the event loop between slices: hashing a page is
 * synchronous CPU, and one page of 10,000 rows in one go would hold every other tenant's request for a second
 * (issue 28: that, not the rate, set another tenant's preflight latency). Same verdict as one verifyChain call.
 */
async function verifyYielding(rows: readonly ChainedIntervention[], from: ChainAnchor): Promise<ChainVerification> {
  let anchor = from;
  let checked = 0;
  for (let start = 0; start < rows.length; start += VERIFY_SLICE_ROWS) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = rows.slice(start, start + VERIFY_SLICE_ROWS);
    const result = verifyChain(slice, anchor);
    if (!result.ok) return { ...result, checked: checked + result.checked };
    checked += result.checked;
    anchor = slice.at(-1)!;
  }
  return { ok: true, checked };
}
