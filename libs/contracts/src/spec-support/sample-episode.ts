import type { EpisodeEventData } from '../episode.js';
import { permissionBlock } from './sample-intervention.js';

// The triggered step of the episode permissionBlock opened, as the decision service would publish it.
export const permissionTriggered: EpisodeEventData = {
  eventId: '6f1d7a52-1c3e-5b8a-9d2f-0a4b6c8e1f30',
  transition: 'triggered',
  episodeId: '0c9e4b1a-2d3f-5e6a-8b7c-9d0e1f2a3b4c',
  episode: 1,
  tenant: 'acme',
  keyId: permissionBlock.keyId,
  scope: 'fleet',
  run: 'run-7f3a',
  agent: 'billing-agent',
  principal: 'svc-billing',
  tool: 'sql.execute',
  failureClass: 'permission',
  level: 'block',
  previousLevel: null,
  interventionId: permissionBlock.interventionId,
  summary: permissionBlock.artifact.safety_justification,
  actor: null,
  artifact: permissionBlock.artifact,
  stateVersion: 1,
  openedAt: permissionBlock.issuedAt,
  occurredAt: permissionBlock.issuedAt,
};
