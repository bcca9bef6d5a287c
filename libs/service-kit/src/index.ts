export * from './health.controller.js';
export * from './run-app.js';
