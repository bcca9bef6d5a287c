import type { Message, Producer } from 'kafkajs';

export interface OpenLoopResult {
  /** performance.now() at which message i was due: latency is measured from here (no coordinated omission). */
  readonly scheduledAt: Float64Array;
  readonly sentSeconds: number;
  /** Per message, ms from its due time to the broker's acknowledgement of the request that carried it. */
  readonly ackLatenciesMs: readonly number[];
  readonly requests: number;
}

/**
 * Offers `messages` at a fixed `rate` per second whatever the system does: message i is due at
 * start + i/rate. Due messages queue while a request is in flight and leave together with the next
 * one, as a real producer's batching does (an idempotent producer allows one request in flight). A
 * slow broker or pipeline therefore shows as latency from the due time, never as a lower offered rate.
 */
export async function produceOpenLoop(
  producer: Producer,
  topic: string,
  messages: readonly Message[],
  rate: number,
): Promise<OpenLoopResult> {
  const scheduledAt = new Float64Array(messages.length);
  const ackLatenciesMs: number[] = [];
  const started = performance.now();
  for (let i = 0; i < messages.length; i += 1) scheduledAt[i] = started + (i * 1000) / rate;
  let next = 0;
  let requests = 0;
  let inFlight: Promise<void> | null = null;
  while (next < messages.length || inFlight) {
    const due = Math.min(messages.length, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    if (!inFlight && due > next) {
      const first = next;
      next = due;
      requests += 1;
      inFlight = producer.send({ topic, acks: -1, messages: messages.slice(first, due) as Message[] }).then(() => {
        const acked = performance.now();
        for (let i = first; i < due; i += 1) ackLatenciesMs.push(acked - scheduledAt[i]!);
        inFlight = null;
      });
    }
    // Node timers fire at ~1 ms granularity: at 1,000/s a tick finds one or two messages due.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { scheduledAt, sentSeconds: (performance.now() - started) / 1000, ackLatenciesMs, requests };
}
