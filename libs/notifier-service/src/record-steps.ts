import type { EpisodeEventData } from '@tokencircuit/contracts';
import { deliveryId, routeEpisode, type NotifyConfig } from '@tokencircuit/notifier';
import { recordDeliveries, sinksOfEpisodes, type NewDelivery, type SqlSession } from '@tokencircuit/storage';

/**
 * Routes a batch of episode steps and records one delivery per (step, sink), in step order. A step seen
 * before (redelivered by Kafka or republished by the decision service) yields the same ids: nothing new.
 */
export async function recordSteps(
  tx: SqlSession,
  config: NotifyConfig,
  steps: readonly EpisodeEventData[],
): Promise<NewDelivery[]> {
  const closing = steps.filter((s) => s.transition === 'acknowledged' || s.transition === 'resolved');
  const carried = await sinksOfEpisodes(
    tx,
    closing.map((s) => s.episodeId),
  );
  const deliveries: NewDelivery[] = [];
  for (const step of steps) {
    const sinks = routeEpisode(config, step, carried.get(step.episodeId) ?? []);
    for (const sink of sinks) {
      deliveries.push({ id: deliveryId(step.eventId, sink), sink, sinkType: config.sinks.get(sink)!.type, step });
    }
    // A trigger earlier in this batch carries the episode for a resolution later in it.
    if (sinks.length > 0) carried.set(step.episodeId, [...new Set([...(carried.get(step.episodeId) ?? []), ...sinks])]);
  }
  return recordDeliveries(tx, deliveries);
}
