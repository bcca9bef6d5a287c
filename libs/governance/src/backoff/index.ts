export * from './backoff.js';
export * from './full-jitter.js';
export * from './server-delay.js';
