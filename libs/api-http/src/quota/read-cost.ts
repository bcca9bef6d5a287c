import { MAX_VERIFY_PAGE, VERIFY_PAGE_DEFAULT } from '../audit/verify-query.js';

/**
 * What a read costs, in read units, from what it may touch: a listing page costs by the rows it may return, a
 * page of chain verification by the chain rows it hashes (≈ 0.1 ms each, issue 28), an anchor check by the
 * events digest it computes. Charged before the read runs, from the query alone, so an unbounded read cannot
 * exist: every read names (or defaults) its page size, and the page sizes are capped.
 */
export const LIST_ROWS_PER_UNIT = 100;
export const VERIFY_ROWS_PER_UNIT = 10;
/**
 * The events digest of an anchor check reads the tenant's events through a position, as many as there are: a
 * small price up front, then one unit per EVENTS_PER_UNIT events it read, charged once known (chargeRead).
 */
export const ANCHOR_CHECK_UNITS = 10;
export const EVENTS_PER_UNIT = 100;
export const MAX_READ_COST = 1 + Math.ceil(MAX_VERIFY_PAGE / VERIFY_ROWS_PER_UNIT) + ANCHOR_CHECK_UNITS;

export const VERIFY_ROUTE = '/v1/audit/verify';

/** The page size a query asks for, or `fallback` (an invalid one is refused by the route's validation after). */
function pageSize(query: unknown, fallback: number, max: number): number {
  const raw = (query as Record<string, unknown> | null | undefined)?.limit;
  const limit = typeof raw === 'string' && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : fallback;
  return Math.min(Math.max(limit, 1), max);
}

/** The cost of a GET of `route` (Fastify's route pattern) with this parsed query. */
export function readCost(route: string, query: unknown): number {
  if (route === VERIFY_ROUTE) {
    const rows = pageSize(query, VERIFY_PAGE_DEFAULT, MAX_VERIFY_PAGE);
    const anchored = (query as Record<string, unknown> | null | undefined)?.eventsThrough !== undefined;
    return 1 + Math.ceil(rows / VERIFY_ROWS_PER_UNIT) + (anchored ? ANCHOR_CHECK_UNITS : 0);
  }
  // Listings page at most 500 rows (100 by default); every other read is one row, one run or one window.
  if (LISTINGS.has(route)) return 1 + Math.ceil(pageSize(query, 100, 500) / LIST_ROWS_PER_UNIT);
  return 1;
}

const LISTINGS = new Set(['/v1/audit/interventions', '/v1/state']);
