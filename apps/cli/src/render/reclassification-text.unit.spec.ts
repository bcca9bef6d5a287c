import { DiagnosticArtifactSchema } from '@tokencircuit/contracts';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { describe, expect, it } from 'vitest';
import { colours } from '../io/colours.js';
import { interventionText } from './intervention-text.js';
import { stateText } from './state-text.js';

const governance = createGovernance(DEFAULT_CONFIG);
const c = colours(false);

describe('the CLI says when a key was reclassified (issue 27.7)', () => {
  const timeline = new Timeline();
  const agent = new SpecAgent(timeline, 'acme', 'support-bot', 'run-4', {
    resourceClass: 'sql_namespace',
    resourceId: 'crm.tickets',
    effect: 'read',
  });
  const query = agent.call('sql_query', { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'opne'" } });
  const empty = agent.succeeded(query, { empty: true, rowCount: 0 });
  const refuted = agent.verified(query, 'empty_result', 'refuted', { emptyCause: 'wrong_query' });
  const of = (events: Parameters<typeof governance.replay>[0]) => {
    const state = [...governance.replay(events).states.values()][0]!;
    const decision = governance.decide(state);
    // Parsed as a subscriber reads it (a plain, mutable DiagnosticArtifact).
    return { state, decision, artifact: DiagnosticArtifactSchema.parse(governance.artifact(state, decision)) };
  };

  it('the intervention: "validation" next to error_class=ambiguous_effect, with the line that explains it', () => {
    const { decision, artifact } = of([empty, refuted]);
    const text = interventionText({ level: decision.level, nextAction: decision.nextAction, artifact }, c).join('\n');
    expect(text).toContain('· validation · sql_query');
    expect(text).toContain('error_class=ambiguous_effect');
    expect(text).toContain(
      `from class ambiguous_effect → validation by verifier:empty_result:refuted:wrong_query at ${refuted.time} (event ${refuted.id})`,
    );
  });

  it('state: the same line under the status', () => {
    const { state, decision } = of([empty, refuted]);
    expect(stateText(state, decision, '', c).join('\n')).toContain(
      `reclassified ambiguous_effect → validation by verifier:empty_result:refuted:wrong_query at ${refuted.time}`,
    );
  });

  it('a key never reclassified prints no such line', () => {
    const { state, decision, artifact } = of([empty]);
    const text = [
      ...interventionText({ level: decision.level, nextAction: decision.nextAction, artifact }, c),
      ...stateText(state, decision, '', c),
    ].join('\n');
    expect(text).not.toMatch(/from class|reclassified/);
  });
});
