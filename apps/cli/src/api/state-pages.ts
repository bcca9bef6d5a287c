import type { StateFilters } from '../audit/state-filters.js';
import type { ApiClient } from './api-client.js';
import type { FailureStatePage, FailureStateSummary } from './api-types.js';

const PAGE = 500;

/** Up to `limit` failure states matching `filters`, most recently changed first, following nextCursor. */
export async function listStates(
  client: ApiClient,
  filters: StateFilters,
  limit: number,
): Promise<FailureStateSummary[]> {
  const items: FailureStateSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.getJson<FailureStatePage>('/v1/state', {
      ...filters,
      cursor,
      limit: Math.min(PAGE, limit - items.length),
    });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && items.length < limit);
  return items;
}
