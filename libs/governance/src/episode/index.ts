export * from './episode-record.js';
export * from './episode-id.js';
export * from './episode-steps.js';
export * from './acknowledgement.js';
