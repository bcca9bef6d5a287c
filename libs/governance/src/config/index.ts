export * from './config.js';
export {
  MAX_BUDGET,
  FLOORED_CLASSES,
  TokenCircuitConfigInputSchema,
  type FlooredClass,
  type TokenCircuitConfigInput,
} from './config-schema.js';
export * from './load-config.js';
export * from './policy-version.js';
export * from './policy-lookup.js';
export * from './policy-json-schema.js';
