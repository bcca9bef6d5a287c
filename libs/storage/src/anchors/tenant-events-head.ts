import type { SqlSession } from '../sql-database.js';
import { advanceEventsHead, NO_EVENTS, type EventsHead } from './events-digest.js';
import { readDigestedEvents } from './read-digested-events.js';

/** A tenant's events head recomputed from the table through `through` (what verify compares with an anchor). */
export async function tenantEventsHead(
  session: SqlSession,
  tenant: string,
  through: number,
  pageSize = 1000,
): Promise<EventsHead> {
  let head: EventsHead = NO_EVENTS;
  for (;;) {
    const page = await readDigestedEvents(session, { after: head.through, through, tenant, limit: pageSize });
    const last = page.at(-1);
    if (!last || page.length < pageSize) return advanceEventsHead(head, page, through);
    head = advanceEventsHead(head, page, last.seq);
  }
}
