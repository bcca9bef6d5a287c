export * from './wait-for.js';
