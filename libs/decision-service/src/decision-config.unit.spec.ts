import { describe, expect, it } from 'vitest';
import { loadDecisionConfig } from './decision-config.js';

const BASE = { KAFKA_BROKERS: '127.0.0.1:9092' };

describe('decision service config', () => {
  it('keeps published outbox rows a week by default, and 0 turns the purge off', () => {
    expect(loadDecisionConfig(BASE).DECISION_OUTBOX_RETENTION_HOURS).toBe(168);
    expect(loadDecisionConfig({ ...BASE, DECISION_OUTBOX_RETENTION_HOURS: '0' }).DECISION_OUTBOX_RETENTION_HOURS).toBe(
      0,
    );
  });

  it('refuses a retention that is not a whole number of hours, naming the variable', () => {
    expect(() => loadDecisionConfig({ ...BASE, DECISION_OUTBOX_RETENTION_HOURS: '1.5' })).toThrow(
      /DECISION_OUTBOX_RETENTION_HOURS/,
    );
    expect(() => loadDecisionConfig({ ...BASE, DECISION_OUTBOX_RETENTION_HOURS: '-1' })).toThrow(
      /DECISION_OUTBOX_RETENTION_HOURS/,
    );
  });
});
