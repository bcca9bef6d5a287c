export * from './health.controller.js';
export * from './start-failure.js';
export * from './check-infrastructure.js';
export * from './compose-modules.js';
