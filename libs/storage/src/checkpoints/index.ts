export * from './read-checkpoints.js';
export * from './set-checkpoints.js';
