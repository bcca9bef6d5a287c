import type { AgentEvent } from './agent-events.js';

/** The run an agent event belongs to; operator resolutions belong to none. */
export function runOfEvent(event: AgentEvent): string | null {
  switch (event.type) {
    case 'tool_call.requested':
    case 'tool_call.outcome':
      return event.data.call.run;
    case 'verifier.result':
      return event.data.run;
    case 'operator.resolution':
      return null;
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** The agent that produced an event; operator resolutions come from a person, not an agent. */
export function agentOfEvent(event: AgentEvent): string | null {
  switch (event.type) {
    case 'tool_call.requested':
    case 'tool_call.outcome':
      return event.data.call.agent;
    case 'verifier.result':
      return event.data.agent;
    case 'operator.resolution':
      return null;
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/**
 * The CloudEvent source of an event (what agent_events.source holds): the agent, or the operator, inside its
 * tenant. Derived from the event, so both doors (HTTP and Kafka) store the same source for the same event.
 */
export function sourceOfEvent(event: AgentEvent): string {
  switch (event.type) {
    case 'tool_call.requested':
    case 'tool_call.outcome':
      return `/tenants/${event.tenant}/agents/${event.data.call.agent}`;
    case 'verifier.result':
      return `/tenants/${event.tenant}/agents/${event.data.agent}`;
    case 'operator.resolution':
      return `/tenants/${event.tenant}/operators/${event.data.by}`;
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/**
 * A tenant and an event id, for lookups by bare id within a tenant (causing event ids, operator resolutions,
 * a trace's line numbers). Not unique on its own since migration 0035: see storedEventIdentity.
 */
export const eventIdentity = (event: { readonly tenant: string; readonly id: string }): string =>
  `${event.tenant}\u001f${event.id}`;

/**
 * What makes an agent event unique (agent_events' primary key, migration 0035): its id within its source,
 * as CloudEvents says, within its tenant. Two agents may use the same id for two events.
 */
export const storedEventIdentity = (event: {
  readonly tenant: string;
  readonly id: string;
  readonly source: string;
}): string => `${event.tenant}\u001f${event.id}\u001f${event.source}`;

/** storedEventIdentity of an agent event. */
export const identityOfEvent = (event: AgentEvent): string =>
  storedEventIdentity({ tenant: event.tenant, id: event.id, source: sourceOfEvent(event) });
