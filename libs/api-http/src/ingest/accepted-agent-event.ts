import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { redactEvent } from '@tokencircuit/governance';

/**
 * An agent event as the API accepts it, whoever wrote it (an agent's POST, an operator's resolution, a
 * PagerDuty webhook): validated, then redacted once here, as AgentEventPublisher's contract asks — the
 * embedded bus projects it as it is, and secrets pasted into any field never reach Kafka. Throws the
 * contract's ContractError for input the contract refuses.
 */
export function acceptedAgentEvent(input: unknown): AgentEvent {
  return redactEvent(parseAgentEvent(input));
}
