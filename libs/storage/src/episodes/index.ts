// Episode lifecycle steps in the audit trail (episode_events), as the decision relay records them.
export * from './lock-episode-events.js';
export * from './append-episode-events.js';
