/** The notifier's pure core: routing file, route matching, provider payloads, retry and breaker rules. No I/O. */
export * from './notify-config.js';
export * from './notify-config-json-schema.js';
export * from './load-notify-config.js';
export * from './route-episode.js';
export * from './delivery-id.js';
export * from './outbound-request.js';
export * from './episode-link.js';
export * from './build-request.js';
export * from './response-outcome.js';
export * from './retry-backoff.js';
export * from './circuit-breaker.js';
export * from './text/index.js';
