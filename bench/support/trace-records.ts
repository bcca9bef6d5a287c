import type { Message, Producer } from 'kafkajs';
import { type AgentEvent } from '@tokencircuit/contracts';
import { agentEventRecord } from '@tokencircuit/contracts';

/** An agent event as the SDK and the API ingest put it on the wire: a binary-mode CloudEvent keyed tenant/run. */
export function toMessage(event: AgentEvent): Message {
  const record = agentEventRecord(event);
  return { key: record.key, value: record.value, headers: record.headers };
}

/**
 * Produces every event (closed loop, as fast as the broker acks) one request at a time, so an
 * idempotent producer keeps each run's order; returns the bytes of the values written.
 */
export async function produceAll(
  producer: Producer,
  topic: string,
  events: readonly AgentEvent[],
  slice = 2_000,
): Promise<number> {
  let bytes = 0;
  for (let start = 0; start < events.length; start += slice) {
    const messages = events.slice(start, start + slice).map(toMessage);
    for (const m of messages) bytes += (m.value as Buffer).length;
    await producer.send({ topic, acks: -1, messages });
  }
  return bytes;
}
