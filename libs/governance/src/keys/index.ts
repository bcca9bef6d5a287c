export * from './key-id.js';
export * from './state-key.js';
export * from './key-matcher.js';
export type { Route } from './route.js';
export * from './candidate-selection.js';
