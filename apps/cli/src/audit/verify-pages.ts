import { ApiResponseError } from '../api/api-client.js';
import type { ChainReport } from '../api/api-types.js';

type Query = Record<string, string | number | undefined>;

export interface PageReader {
  getJson<T>(path: string, query?: Query): Promise<T>;
}

/** Rows the API verifies per request by default (its own default; at most 10,000). */
export const VERIFY_PAGE_ROWS = 1_000;

/** Consecutive 429s waited out before giving up (each wait is the API's Retry-After). */
const MAX_WAITS = 600;

/**
 * The whole chain, verified page after page: GET /v1/audit/verify answers one page (bounded cost, metered per
 * tenant) and `next`, the cursor that continues from the hash that page ended on. The pages' verdicts add up
 * to one: rows checked in all, or the first break with the rows verified intact before it. `anchor` positions
 * go with the first page; the head is the last page's (the newest row when the walk ended). A 429 (the
 * tenant's read quota) is waited out as the API says, so a long chain takes longer instead of failing.
 */
export async function verifyWholeChain(
  client: PageReader,
  anchor: Query = {},
  limit = VERIFY_PAGE_ROWS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<ChainReport> {
  let checked = 0;
  let cursor: string | undefined;
  let first: ChainReport | null = null;
  for (;;) {
    const page = await withRetries(
      () => client.getJson<ChainReport>('/v1/audit/verify', { ...(first ? {} : anchor), cursor, limit }),
      sleep,
    );
    first ??= page;
    const result = page.result.ok
      ? { ok: true as const, checked: checked + page.result.checked }
      : { ...page.result, checked: checked + page.result.checked };
    checked = result.checked;
    if (!page.result.ok || page.next === null) {
      const { anchorFacts } = first;
      return { ...page, result, next: null, ...(anchorFacts ? { anchorFacts } : {}) };
    }
    cursor = page.next;
  }
}

async function withRetries<T>(read: () => Promise<T>, sleep: (ms: number) => Promise<void>): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ApiResponseError) || error.status !== 429 || waits >= MAX_WAITS) throw error;
      // The API's message ends "retry after N s" (the body's retryAfterSeconds); one second when it does not.
      const seconds = Number(/retry after (\d+) s/.exec(error.message)?.[1] ?? 1);
      await sleep(Math.max(1, seconds) * 1000);
    }
  }
}
