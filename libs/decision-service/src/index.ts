/** The decision service as a Nest module: decision_outbox → decide → audit trail → interventions topic. */
export { DecisionModule, type DecisionModuleOptions, type DecisionPorts } from './decision.module.js';
export {
  loadDecisionConfig,
  loadDecisionSettings,
  type DecisionConfig,
  type DecisionSettings,
} from './decision-config.js';
export type { OutboxNotifications } from './outbox-notifications.port.js';
export { KafkaInterventionPublisher } from './kafka-intervention-publisher.js';
export { KafkaAnchorSink } from './kafka-anchor-sink.js';
export { PgOutboxNotifications } from './pg-outbox-notifications.js';
export { BudgetPublicationRelay, BUDGET_PUBLICATION_GRACE_MS } from './budget-publication-relay.js';
