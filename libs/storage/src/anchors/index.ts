export * from './anchor-key.js';
export * from './audit-anchor.js';
export * from './anchor-check.js';
export * from './events-digest.js';
export * from './anchor-reads.js';
export * from './read-anchor-heads.js';
export * from './save-anchor-heads.js';
