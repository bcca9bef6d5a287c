import type { AgentEvent } from '@tokencircuit/contracts';
import type { ApiEndpoint } from '@tokencircuit/sdk';

/** Pauses between flush attempts while the backend does not take the held events. */
const RETRY_MS = { first: 500, max: 30_000 } as const;
/** Events per POST /v1/events. */
const BATCH = 100;

export interface EventQueueHealth {
  readonly pending: number;
  readonly limit: number;
  /** Events refused because the queue was full (each one refused its call, or was logged as lost). */
  readonly refused: number;
  readonly published: number;
  readonly oldestAgeMs: number | null;
  readonly lastError: string | null;
}

interface Held {
  readonly event: AgentEvent;
  readonly endpoint: ApiEndpoint;
  readonly since: number;
}

/** The queue is full: the event is not held, and the caller must not go on as if it were. */
export class EventQueueFullError extends Error {
  override readonly name = 'EventQueueFullError';
}

/**
 * Events the governor could not publish, held in order and retried with backoff until the backend takes
 * them. Bounded: past the limit, hold() throws, so the call that produced the event is refused rather than
 * its event dropped silently. Ids are stable, so a resend the backend already took is not counted twice.
 */
export class EventQueue {
  private readonly held: Held[] = [];
  private refused = 0;
  private published = 0;
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryMs: number = RETRY_MS.first;
  private flushing = false;

  constructor(
    private readonly limit: number,
    private readonly log: (line: string) => void,
  ) {}

  hold(event: AgentEvent, endpoint: ApiEndpoint, cause: string): void {
    if (this.held.length >= this.limit) {
      this.refused++;
      this.log(`event queue full (${this.limit}): ${event.type} ${event.id} refused`);
      throw new EventQueueFullError(`the queue of events waiting for the backend is full (${this.limit})`);
    }
    this.held.push({ event, endpoint, since: Date.now() });
    this.lastError = cause;
    this.log(`holding ${event.type} ${event.id} for retry (${this.held.length} pending): ${cause}`);
    this.schedule();
  }

  health(): EventQueueHealth {
    const oldest = this.held[0];
    return {
      pending: this.held.length,
      limit: this.limit,
      refused: this.refused,
      published: this.published,
      oldestAgeMs: oldest === undefined ? null : Date.now() - oldest.since,
      lastError: this.lastError,
    };
  }

  /** Tries to publish everything held now; resolves true when nothing is left. */
  async flush(): Promise<boolean> {
    if (this.flushing) return this.held.length === 0;
    this.flushing = true;
    try {
      while (this.held.length > 0) {
        const first = this.held[0]!;
        const batch = this.held
          .slice(0, BATCH)
          .filter((h) => h.endpoint.url === first.endpoint.url && h.endpoint.apiKey === first.endpoint.apiKey);
        await postEvents(
          first.endpoint,
          batch.map((h) => h.event),
        );
        this.held.splice(0, batch.length);
        this.published += batch.length;
        this.retryMs = RETRY_MS.first;
      }
      this.lastError = null;
      return true;
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      return false;
    } finally {
      this.flushing = false;
    }
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.held.length > 0) this.log(`closing with ${this.held.length} events not published`);
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = this.retryMs;
    this.timer = setTimeout(async () => {
      this.timer = null;
      if (await this.flush()) {
        this.log(`event queue drained (${this.published} published after a retry)`);
        return;
      }
      this.retryMs = Math.min(RETRY_MS.max, this.retryMs * 2);
      this.schedule();
    }, wait);
    this.timer.unref();
  }
}

/** POST /v1/events, the same request the SDK's HTTP sink makes; every id must come back accepted. */
async function postEvents(endpoint: ApiEndpoint, events: readonly AgentEvent[]): Promise<void> {
  const response = await fetch(`${endpoint.url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /v1/events: HTTP ${response.status}: ${text.slice(0, 200)}`);
  const accepted = new Set((JSON.parse(text) as { accepted?: string[] }).accepted ?? []);
  const missing = events.filter((event) => !accepted.has(event.id));
  if (missing.length > 0) throw new Error(`POST /v1/events: ${missing.length} events missing from the accepted ids`);
}
