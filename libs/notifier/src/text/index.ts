export * from './cut-text.js';
export * from './identifying-arguments.js';
export * from './next-action-text.js';
export * from './notification-text.js';
export * from './causing-arguments.js';
