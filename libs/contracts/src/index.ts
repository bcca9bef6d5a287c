export * from './failure-class.js';
export * from './limits.js';
export * from './agent-events.js';
export * from './intervention.js';
export * from './topics.js';
export * from './cloud-event.js';
export * from './kafka-binding.js';
export * from './agent-event-envelope.js';
