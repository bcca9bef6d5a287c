export * from './env.js';
export * from './kafka-config.js';
export * from './policy-file.js';
export * from './startup-error.js';
