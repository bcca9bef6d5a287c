import { encodeCursor } from '@tokencircuit/api-http/wire';
import type { ApiClient } from './api-client.js';
import type { AuditFilters, InterventionPage, InterventionRecord } from './api-types.js';

const PAGE = 500;

/** Up to `limit` interventions matching `filters`, following nextCursor page by page. */
export async function listInterventions(
  client: ApiClient,
  filters: AuditFilters,
  order: 'asc' | 'desc',
  limit: number,
): Promise<InterventionRecord[]> {
  const items: InterventionRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.getJson<InterventionPage>('/v1/audit/interventions', {
      ...filters,
      order,
      cursor,
      limit: Math.min(PAGE, limit - items.length),
    });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && items.length < limit);
  return items;
}

/** The newest audit-trail sequence number visible to the key's tenant (0 when the trail is empty). */
export async function newestSeq(client: ApiClient): Promise<number> {
  const page = await client.getJson<InterventionPage>('/v1/audit/interventions', { order: 'desc', limit: 1 });
  return page.items[0]?.seq ?? 0;
}

/**
 * Everything after `afterSeq` that matches, oldest first: follows nextCursor while pages are full and
 * returns the new position. The API gives no cursor on its last page, so the next poll continues
 * from the last seq seen with a cursor in the API's own format (encodeCursor, shared source).
 */
export async function interventionsAfter(
  client: ApiClient,
  filters: AuditFilters,
  afterSeq: number,
): Promise<{ items: InterventionRecord[]; lastSeq: number }> {
  const items: InterventionRecord[] = [];
  let cursor = afterSeq > 0 ? encodeCursor({ seq: afterSeq, order: 'asc' }) : undefined;
  for (;;) {
    const page = await client.getJson<InterventionPage>('/v1/audit/interventions', {
      ...filters,
      order: 'asc',
      cursor,
      limit: PAGE,
    });
    items.push(...page.items);
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return { items, lastSeq: items.at(-1)?.seq ?? afterSeq };
}
