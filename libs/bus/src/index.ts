export * from './in-process-bus.js';
