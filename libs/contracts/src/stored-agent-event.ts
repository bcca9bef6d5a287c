import { ceTypeOf, cloudEventToAgentEvent } from './agent-event-envelope.js';
import { AGENT_EVENT_TYPES, type AgentEvent } from './agent-events.js';
import { CloudEventSchema, type CloudEvent } from './cloud-event.js';

/** The CloudEvent type of each event type's current version, back to the event type. */
const CURRENT_TYPES: ReadonlyMap<string, AgentEvent['type']> = new Map(
  AGENT_EVENT_TYPES.map((type) => [ceTypeOf(type), type] as const),
);

/**
 * A CloudEvent read back from `agent_events` → the agent event. The projector stores what it decoded
 * (validated, redacted, upgraded to the current version: `agentEventToCloudEvent` of the decoded event), so a
 * row of a current type is taken as it is: re-validating millions of rows is most of a what-if replay's
 * time. A row of an older version (stored before an upgrade was added), or one that is not the shape the
 * projector writes, goes through the full decode and its upgrades, and fails as the edge would.
 */
export function storedAgentEvent(stored: unknown): AgentEvent {
  if (typeof stored === 'object' && stored !== null) {
    const ce = stored as Partial<CloudEvent> & { tenantid?: unknown };
    const type = typeof ce.type === 'string' ? CURRENT_TYPES.get(ce.type) : undefined;
    if (
      type !== undefined &&
      typeof ce.id === 'string' &&
      typeof ce.tenantid === 'string' &&
      typeof ce.time === 'string' &&
      typeof ce.data === 'object' &&
      ce.data !== null
    ) {
      return { type, id: ce.id, tenant: ce.tenantid, time: ce.time, data: ce.data } as AgentEvent;
    }
  }
  return cloudEventToAgentEvent(CloudEventSchema.parse(stored) as CloudEvent);
}
