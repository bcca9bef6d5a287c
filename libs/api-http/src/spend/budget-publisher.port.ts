import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';

/**
 * Where the budget interventions the API appends are announced: the interventions topic and the episodes topic
 * the notifier consumes (KafkaInterventionPublisher when connected). Called after the appending transaction
 * committed, with only what it appended; subscribers dedupe on the ids (the crossing id, the step's event id).
 */
export interface BudgetPublisher {
  publish(interventions: readonly InterventionData[], episodes: readonly EpisodeEventData[]): Promise<void>;
}
