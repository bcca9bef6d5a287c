export * from './spend-lines.js';
export * from './spend-reservations.js';
