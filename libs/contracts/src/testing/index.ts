// The one vocabulary specs use to build agent events and the records that carry them
// (`@tokencircuit/contracts/testing`): actors on a timeline make validated events, the contract's `agentEventRecord` puts
// one on the wire as a producer would. Not part of the contract's API: nothing outside specs imports it.
export * from './timeline.js';
export * from './actors.js';
export * from './over-the-wire.js';
export * from './consumed-record.js';
export * from './producer-input.js';
