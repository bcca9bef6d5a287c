export * from './build-artifact.js';
export * from './intervention-id.js';
export * from './intervention.js';
