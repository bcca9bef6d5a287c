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
 * What makes an agent event unique: its id within its tenant (agent_events' primary key). CloudEvents makes
 * source + id unique and every source lies inside one tenant; the tenant's own events are referenced by
 * bare id (causing ids, operator resolutions), so within a tenant the id alone must identify the event.
 */
export const eventIdentity = (event: { readonly tenant: string; readonly id: string }): string =>
  `${event.tenant}\u001f${event.id}`;
