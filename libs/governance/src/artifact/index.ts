export * from './intervention-id.js';
