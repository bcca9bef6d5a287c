import { agentEventToCloudEvent, interventionToCloudEvent } from './agent-event-envelope.js';
import type { AgentEvent } from './agent-events.js';
import { episodeToCloudEvent, type EpisodeEventData } from './episode.js';
import { runOfEvent } from './event-coordinates.js';
import type { InterventionData } from './intervention.js';
import { toKafkaRecord, type ContentMode, type KafkaRecord } from './kafka-binding.js';
import { partitionKey } from './topics.js';

/**
 * The records every producer puts on the wire, built in one place: the SDK's sink, the API ingest, the
 * decision service, the embedded bus and the specs all key and encode an event the same way, so a run
 * (and a fleet key's steps) stays on one partition whoever publishes it.
 */

/** An agent event: a CloudEvent (binary mode unless told), keyed tenant/run so a run stays on one partition. */
export function agentEventRecord(event: AgentEvent, mode: ContentMode = 'binary'): KafkaRecord {
  return toKafkaRecord(agentEventToCloudEvent(event), mode, partitionKey(event.tenant, runOfEvent(event)));
}

/** An intervention: a structured CloudEvent keyed tenant/run, beside the run's events. */
export function interventionRecord(data: InterventionData): KafkaRecord {
  return toKafkaRecord(interventionToCloudEvent(data), 'structured', partitionKey(data.tenant, data.run));
}

/** Every step of one key on one partition, in order: fleet keys by tenant, run keys by tenant/run. */
export const episodePartitionKey = (step: EpisodeEventData): string =>
  partitionKey(step.tenant, step.scope === 'fleet' ? null : step.run);

/** An episode lifecycle step: a structured CloudEvent keyed by episodePartitionKey. */
export function episodeRecord(step: EpisodeEventData): KafkaRecord {
  return toKafkaRecord(episodeToCloudEvent(step), 'structured', episodePartitionKey(step));
}
