import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';

/**
 * Where the budget interventions the API appends are announced: the interventions topic and the episodes topic
 * the notifier consumes (KafkaInterventionPublisher when connected). Called after the appending transaction
 * committed, with only what it appended; subscribers dedupe on the ids (the crossing id, the step's event id).
 * This is the fast path of the budget outbox: the ledger marks what it published, and the decision service's
 * BudgetPublicationRelay publishes whatever is left pending (docs/budgets.md, Pages).
 */
export interface BudgetPublisher {
  publish(interventions: readonly InterventionData[], episodes: readonly EpisodeEventData[]): Promise<void>;
}
