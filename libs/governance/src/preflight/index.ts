export type { PreflightResult } from './preflight.js';
