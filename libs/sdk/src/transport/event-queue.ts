import { z } from 'zod';
import type { AgentEvent } from '@tokencircuit/contracts';
import type { ApiEndpoint } from '../options/governor-options.js';
import { ApiClient } from './api-client.js';

/** Pauses between flush attempts while the backend does not take an endpoint's events. */
const RETRY_MS = { first: 500, max: 30_000 } as const;
/** Events per POST /v1/events. */
const BATCH = 100;

const AcceptedSchema = z.object({ accepted: z.array(z.string()) });

export interface EventQueueHealth {
  /** Events not yet acknowledged (in flight or waiting), over every endpoint. */
  readonly pending: number;
  /** Most events one endpoint (one API key) may have pending. */
  readonly limit: number;
  /** Events refused because their endpoint's queue was full (each refused its call, or was logged as lost). */
  readonly refused: number;
  readonly published: number;
  readonly oldestAgeMs: number | null;
  readonly lastError: string | null;
}

/** The queue of this endpoint is full: the event is not held, and the caller must not go on as if it were. */
export class EventQueueFullError extends Error {
  override readonly name = 'EventQueueFullError';
}

interface Held {
  readonly event: AgentEvent;
  readonly since: number;
  /** Settles the publisher that waits for this event's acknowledgement (none for a background event). */
  waiter: { resolve: () => void; reject: (error: Error) => void } | null;
}

/** One API key's events, in the order they were produced, with at most one POST in flight. */
class Lane {
  readonly held: Held[] = [];
  /** The drain in progress (one POST at a time per lane). */
  draining: Promise<boolean> | null = null;
  timer: ReturnType<typeof setTimeout> | null = null;
  /** A background event waits this long for company before its POST leaves (see lingerMs). */
  linger: ReturnType<typeof setTimeout> | null = null;
  /** A flush is waiting for this lane to empty: background events leave at once, not after a linger. */
  flushing = false;
  retryMs: number = RETRY_MS.first;
  readonly api: ApiClient;

  constructor(readonly endpoint: ApiEndpoint) {
    this.api = new ApiClient(endpoint);
  }
}

/**
 * An ordered, bounded, batching queue in front of POST /v1/events, shared by any number of governors.
 * Every event of one endpoint leaves in the order it was enqueued, in batches of what accumulated while
 * the previous POST was in flight, so a caller may hand an event over without waiting (`enqueue`) and a
 * later event that must be acknowledged (`publish`) still lands after it. Events the backend does not take
 * are held and retried with backoff until it does (ids are stable: a resend it already took is not counted
 * twice). Bounded per endpoint: past the limit enqueue throws EventQueueFullError, so the call that
 * produced the event is refused rather than its event dropped, and one tenant whose key stopped working
 * cannot hold up another's events.
 */
export class EventQueue {
  private readonly lanes = new Map<string, Lane>();
  private refused = 0;
  private published = 0;
  private lastError: string | null = null;
  private closed = false;

  /**
   * How long an event nobody waits for may wait for others before its POST leaves (default 5 ms): fewer,
   * fuller requests cost the backend and its broker less per event under load. An event that is waited
   * for leaves at once and takes every earlier one along.
   */
  readonly lingerMs: number;

  constructor(
    readonly limit: number,
    private readonly log: (line: string) => void = () => undefined,
    options: { readonly lingerMs?: number } = {},
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`EventQueue limit must be a positive integer`);
    this.lingerMs = options.lingerMs ?? 5;
    if (!Number.isFinite(this.lingerMs) || this.lingerMs < 0 || this.lingerMs > 1_000)
      throw new RangeError('EventQueue lingerMs must be between 0 and 1000');
  }

  /** Hands the event over; it leaves in order, after everything enqueued before it for this endpoint. */
  enqueue(event: AgentEvent, endpoint: ApiEndpoint): void {
    this.add(event, endpoint, null);
  }

  /**
   * Enqueues the event and resolves once the backend acknowledged it (so every earlier event of the
   * endpoint too). Rejects at the first failed attempt, while the event stays held and is retried: the
   * caller learns the backend did not take it yet, and nothing is lost.
   */
  publish(event: AgentEvent, endpoint: ApiEndpoint): Promise<void> {
    return new Promise<void>((resolve, reject) => this.add(event, endpoint, { resolve, reject }));
  }

  health(): EventQueueHealth {
    let pending = 0;
    let oldest: number | null = null;
    for (const lane of this.lanes.values()) {
      pending += lane.held.length;
      const first = lane.held[0];
      if (first !== undefined && (oldest === null || first.since < oldest)) oldest = first.since;
    }
    return {
      pending,
      limit: this.limit,
      refused: this.refused,
      published: this.published,
      oldestAgeMs: oldest === null ? null : Date.now() - oldest,
      lastError: this.lastError,
    };
  }

  /** Tries to publish everything held now, every endpoint; resolves true when nothing is left. */
  async flush(): Promise<boolean> {
    const results = await Promise.all(
      [...this.lanes.values()].map(async (lane) => {
        if (lane.linger !== null) clearTimeout(lane.linger);
        lane.linger = null;
        lane.flushing = true;
        try {
          let ok = await this.drain(lane);
          while (ok && lane.held.length > 0 && !this.closed) ok = await this.drain(lane);
          return ok;
        } finally {
          lane.flushing = false;
        }
      }),
    );
    return results.every(Boolean) && this.health().pending === 0;
  }

  /** Stops retrying; what is still held is logged, and its waiters are told. */
  close(): void {
    this.closed = true;
    let left = 0;
    for (const lane of this.lanes.values()) {
      if (lane.timer !== null) clearTimeout(lane.timer);
      if (lane.linger !== null) clearTimeout(lane.linger);
      lane.timer = null;
      lane.linger = null;
      left += lane.held.length;
      for (const held of lane.held) settle(held, new Error('the event queue closed before the backend took it'));
    }
    if (left > 0) this.log(`closing with ${left} events not published`);
  }

  private add(event: AgentEvent, endpoint: ApiEndpoint, waiter: Held['waiter']): void {
    if (this.closed) throw new EventQueueFullError('the event queue is closed');
    const id = `${endpoint.url}\u0000${endpoint.apiKey}`;
    let lane = this.lanes.get(id);
    if (lane === undefined) {
      lane = new Lane(endpoint);
      this.lanes.set(id, lane);
    }
    if (lane.held.length >= this.limit) {
      this.refused++;
      this.log(`event queue full (${this.limit}): ${event.type} ${event.id} refused`);
      throw new EventQueueFullError(`the queue of events waiting for the backend is full (${this.limit})`);
    }
    lane.held.push({ event, since: Date.now(), waiter });
    // A lane waiting out a backoff keeps waiting: the retry takes this event along. A POST in flight takes
    // it along too, when it comes back.
    if (lane.timer !== null || lane.draining !== null) return;
    if (waiter !== null || this.lingerMs === 0 || lane.held.length >= BATCH) {
      this.leaveNow(lane);
      return;
    }
    this.lingerOn(lane);
  }

  /** Background events wait for company: the lane's POST leaves after lingerMs unless something sends it sooner. */
  private lingerOn(lane: Lane): void {
    if (lane.linger !== null) return;
    lane.linger = setTimeout(() => {
      lane.linger = null;
      void this.drain(lane);
    }, this.lingerMs);
    (lane.linger as { unref?: () => void }).unref?.();
  }

  /**
   * Whether the lane's held events must leave now: one of them is waited for, a flush waits for the lane, they fill
   * a batch, or nothing lingers. Otherwise they are background events that gathered while a POST was in flight, and wait
   * for company like any other (sent at once, they made every other POST a batch of one call's events).
   */
  private mustLeave(lane: Lane): boolean {
    // A full batch has all the company it can have (a backlog after an outage drains without pauses).
    if (lane.flushing || this.lingerMs === 0 || lane.held.length >= BATCH) return true;
    for (const held of lane.held) if (held.waiter !== null) return true;
    return false;
  }

  private leaveNow(lane: Lane): void {
    if (lane.linger !== null) clearTimeout(lane.linger);
    lane.linger = null;
    void this.drain(lane);
  }

  /** The lane's drain: the one in progress, or a new one. */
  private drain(lane: Lane): Promise<boolean> {
    lane.draining ??= this.post(lane).finally(() => {
      lane.draining = null;
      // An event added between the last POST's answer and this line found the drain still running: send it,
      // or let it linger when nothing waits for it.
      if (lane.held.length === 0 || lane.timer !== null || this.closed) return;
      if (this.mustLeave(lane)) void this.drain(lane);
      else this.lingerOn(lane);
    });
    return lane.draining;
  }

  /** Posts the lane's events in order until it is empty or a POST fails (then retries with backoff). */
  private async post(lane: Lane): Promise<boolean> {
    try {
      // The first batch leaves (something sent the lane); what gathers meanwhile follows only if it must.
      for (let first = true; lane.held.length > 0 && (first || this.mustLeave(lane)); first = false) {
        const batch = lane.held.slice(0, BATCH);
        await postEvents(
          lane.api,
          batch.map((h) => h.event),
        );
        lane.held.splice(0, batch.length);
        this.published += batch.length;
        if (lane.retryMs !== RETRY_MS.first) this.log(`events: the backend takes events again`);
        lane.retryMs = RETRY_MS.first;
        for (const held of batch) settle(held, null);
      }
      if (lane.timer !== null) clearTimeout(lane.timer);
      lane.timer = null;
      this.lastError = null;
      return true;
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      this.log(`holding ${lane.held.length} events for retry in ${lane.retryMs} ms: ${this.lastError}`);
      const failure = error instanceof Error ? error : new Error(this.lastError);
      for (const held of lane.held) settle(held, failure);
      this.retryLater(lane);
      return false;
    }
  }

  private retryLater(lane: Lane): void {
    if (lane.timer !== null || this.closed) return;
    const wait = lane.retryMs;
    lane.retryMs = Math.min(RETRY_MS.max, lane.retryMs * 2);
    lane.timer = setTimeout(() => {
      lane.timer = null;
      void this.drain(lane);
    }, wait);
    (lane.timer as { unref?: () => void }).unref?.();
  }
}

/** Tells a waiting publisher how its event fared, once. */
function settle(held: Held, error: Error | null): void {
  const waiter = held.waiter;
  if (waiter === null) return;
  held.waiter = null;
  if (error === null) waiter.resolve();
  else waiter.reject(error);
}

/** POST /v1/events, the same request the SDK's HTTP sink makes; every id must come back accepted. */
async function postEvents(api: ApiClient, events: readonly AgentEvent[]): Promise<void> {
  const answer = (await api.post('/v1/events', { events }, AcceptedSchema)) as z.infer<typeof AcceptedSchema>;
  const accepted = new Set(answer.accepted);
  const missing = events.filter((event) => !accepted.has(event.id));
  if (missing.length > 0) throw new Error(`POST /v1/events: ${missing.length} events missing from the accepted ids`);
}
