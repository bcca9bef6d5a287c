// Episode lifecycle steps in the audit trail (episode_events), as the decision relay records them.
export * from './append-episode-events.js';
