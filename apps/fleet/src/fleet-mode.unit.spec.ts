import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tokencircuit/config';
import { fleetModeOf } from './fleet-mode.js';

describe('fleetModeOf', () => {
  it('runs embedded when neither Kafka nor Postgres is configured', () => {
    expect(fleetModeOf({})).toBe('embedded');
    expect(fleetModeOf({ KAFKA_BROKERS: ' ', DATABASE_URL: '' })).toBe('embedded');
  });

  it('runs connected when both are configured', () => {
    expect(fleetModeOf({ KAFKA_BROKERS: '127.0.0.1:19092', DATABASE_URL: 'postgres://h/db' })).toBe('connected');
  });

  it('refuses half a configuration and names the missing variable', () => {
    expect(() => fleetModeOf({ KAFKA_BROKERS: '127.0.0.1:19092' })).toThrow(ConfigError);
    expect(() => fleetModeOf({ KAFKA_BROKERS: '127.0.0.1:19092' })).toThrow(/DATABASE_URL: not set/);
    expect(() => fleetModeOf({ DATABASE_URL: 'postgres://h/db' })).toThrow(/KAFKA_BROKERS: not set/);
  });
});
