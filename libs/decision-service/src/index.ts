/** The decision service as a Nest module: decision_outbox → decide → audit trail → interventions topic. */
export { DecisionModule } from './decision.module.js';
export { loadDecisionConfig, type DecisionConfig } from './decision-config.js';
export { KafkaInterventionPublisher } from './kafka-intervention-publisher.js';
