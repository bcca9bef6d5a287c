import { agentEventToCloudEvent, interventionToCloudEvent } from '../agent-event-envelope.js';
import type { AgentEvent } from '../agent-events.js';
import { episodeToCloudEvent, type EpisodeEventData } from '../episode.js';
import { runOfEvent } from '../event-coordinates.js';
import type { InterventionData } from '../intervention.js';
import { toKafkaRecord, type ContentMode, type KafkaRecord } from '../kafka-binding.js';
import { partitionKey } from '../topics.js';

/**
 * The Kafka record a producer puts on the wire for `event`, as the SDK's sink and the API ingest build it:
 * the event as a CloudEvent (binary mode unless told), keyed tenant/run so a run stays on one partition.
 */
export function producedRecord(event: AgentEvent, mode: ContentMode = 'binary'): KafkaRecord {
  return toKafkaRecord(agentEventToCloudEvent(event), mode, partitionKey(event.tenant, runOfEvent(event)));
}

/** The record the decision service publishes for an intervention: a structured CloudEvent keyed tenant/run. */
export function producedInterventionRecord(data: InterventionData): KafkaRecord {
  return toKafkaRecord(interventionToCloudEvent(data), 'structured', partitionKey(data.tenant, data.run));
}

/** The record the decision service publishes for an episode step: structured, fleet keys by tenant, run keys by tenant/run. */
export function producedEpisodeRecord(step: EpisodeEventData): KafkaRecord {
  return toKafkaRecord(
    episodeToCloudEvent(step),
    'structured',
    partitionKey(step.tenant, step.scope === 'fleet' ? null : step.run),
  );
}
