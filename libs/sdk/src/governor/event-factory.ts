import { randomUUID } from 'node:crypto';
import { parseAgentEvent, type AgentEvent, type AgentEventInput } from '@tokencircuit/contracts';

type Data<T extends AgentEventInput['type']> = Extract<AgentEventInput, { type: T }>['data'];

/**
 * Builds agent events for one tenant and validates each with the contracts before anything is sent:
 * a ContractError here is a bug or a bad input in the caller, reported at once, never published.
 */
export class EventFactory {
  constructor(
    private readonly tenant: string,
    private readonly clock: () => Date,
  ) {}

  event<T extends AgentEventInput['type']>(type: T, data: Data<T>): Extract<AgentEvent, { type: T }> {
    const input = {
      type,
      id: randomUUID(),
      tenant: this.tenant,
      time: this.clock().toISOString(),
      data,
    } as AgentEventInput;
    return parseAgentEvent(input) as Extract<AgentEvent, { type: T }>;
  }
}
