export * from './spend-schema.js';
export * from './spend-policy.js';
export * from './default-prices.js';
export * from './windows.js';
export * from './ledger.js';
export * from './covering.js';
export * from './budget-verdict.js';
export * from './spend-what-if.js';
