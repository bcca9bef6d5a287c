import { describe, expect, it } from 'vitest';
import { generateAnchorKeyPair } from '@tokencircuit/storage';
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

  it('anchors: no key means no anchoring; a PEM key (newlines escaped or not) is parsed with its id', () => {
    expect(loadDecisionConfig(BASE).TOKENCIRCUIT_ANCHOR_KEY).toBeNull();
    const pair = generateAnchorKeyPair();
    expect(
      loadDecisionConfig({ ...BASE, TOKENCIRCUIT_ANCHOR_KEY: pair.privateKeyPem }).TOKENCIRCUIT_ANCHOR_KEY?.keyId,
    ).toBe(pair.keyId);
    const escaped = pair.privateKeyPem.replace(/\n/g, '\\n');
    expect(loadDecisionConfig({ ...BASE, TOKENCIRCUIT_ANCHOR_KEY: escaped }).TOKENCIRCUIT_ANCHOR_KEY?.keyId).toBe(
      pair.keyId,
    );
    expect(loadDecisionConfig(BASE).DECISION_ANCHOR_INTERVAL_MS).toBe(60_000);
  });

  it('anchors: a key that is not Ed25519, or an interval out of range, fails at start naming the variable', () => {
    expect(() => loadDecisionConfig({ ...BASE, TOKENCIRCUIT_ANCHOR_KEY: 'secret' })).toThrow(
      /TOKENCIRCUIT_ANCHOR_KEY.*not an Ed25519 private key/,
    );
    expect(() => loadDecisionConfig({ ...BASE, DECISION_ANCHOR_INTERVAL_MS: '10' })).toThrow(
      /DECISION_ANCHOR_INTERVAL_MS/,
    );
    expect(() => loadDecisionConfig({ ...BASE, DECISION_ANCHOR_INTERVAL_MS: 'often' })).toThrow(
      /DECISION_ANCHOR_INTERVAL_MS/,
    );
  });
});
