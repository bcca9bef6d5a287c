export * from './key-id.js';
export * from './state-key.js';
export * from './key-matcher.js';
export * from './route.js';
export * from './candidate-selection.js';
