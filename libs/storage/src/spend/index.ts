export * from './spend-lines.js';
export * from './spend-reservations.js';
export * from './read-spend.js';
export * from './settle-outcomes.js';
export * from './record-budget-crossings.js';
export * from './reserve-at-once.js';
export * from './settle-with-crossings.js';
export * from './read-spend-by-failure.js';
