/** The sink types notifier_deliveries accepts (its CHECK constraint, migration 0027). */
export type DeliverySinkType = 'pagerduty' | 'slack' | 'webhook' | 'alertmanager';
