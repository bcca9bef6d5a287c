import { cloudEventToAgentEvent, fromKafkaRecord, type AgentEvent } from '@tokencircuit/contracts';
import { consumeUntil } from '@tokencircuit/testing';

/** The agent events on `topic` whose ids start with `prefix`, once `count` of them arrived, with their traceparent header. */
export async function eventsWithPrefix(
  topic: string,
  prefix: string,
  count: number,
): Promise<{ event: AgentEvent; traceparent: string | null }[]> {
  const idOf = (headers: Record<string, Buffer | string | undefined>) => headers['ce_id']?.toString() ?? '';
  const received = await consumeUntil(
    topic,
    (all) => all.filter((m) => idOf(m.headers).startsWith(prefix)).length >= count,
    {
      name: `${count} events with ids ${prefix}…`,
    },
  );
  return received
    .filter((m) => idOf(m.headers).startsWith(prefix))
    .map((m) => ({
      event: cloudEventToAgentEvent(fromKafkaRecord({ key: m.key, value: m.value, headers: m.headers })),
      traceparent: m.headers['traceparent']?.toString() ?? null,
    }));
}
