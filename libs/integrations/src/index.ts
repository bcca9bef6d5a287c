/** What comes back from paging tools, mapped without I/O: PagerDuty webhook v3 → operator resolutions. */
export * from './pagerduty/webhook-delivery.js';
export * from './pagerduty/webhook-signature.js';
export * from './pagerduty/incident-action.js';
export * from './pagerduty/operator-resolution.js';
