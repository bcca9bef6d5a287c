/** The notifier as a Nest module: episode steps → routes → notifier_deliveries → sinks (PagerDuty, Slack, webhooks, Alertmanager). */
export { NotifierModule, type NotifierModuleOptions, type NotifierPorts } from './notifier.module.js';
export {
  loadNotifierConfig,
  loadNotifierSettings,
  readNotifyFile,
  type NotifierConfig,
  type NotifierSettings,
} from './notifier-config.js';
export type { EpisodeSource, StepHandler } from './episode-source.port.js';
export type { DeliveryDeadLetters } from './delivery-dead-letters.port.js';
export { NotifierMetrics } from './notifier-metrics.js';
export { TableEpisodeSource } from './table-episode-source.js';
export { KafkaEpisodeSource } from './kafka-episode-source.js';
export { KafkaDeliveryDeadLetters } from './kafka-delivery-dead-letters.js';
