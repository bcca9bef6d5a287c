import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, parseEnv, port } from './env.js';
import { loadKafkaConnection } from './kafka-config.js';

describe('parseEnv', () => {
  it('reports every wrong variable at once, with the value it got', () => {
    const schema = z.object({ PORT: port, NAME: z.string().min(1) });
    const attempt = () => parseEnv(schema, { PORT: 'eighty' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^PORT: .*\(got "eighty"\)$/);
      expect(problems[1]).toMatch(/^NAME: .*\(not set\)$/);
    }
  });
});

describe('loadKafkaConnection', () => {
  it('splits brokers and defaults the rest', () => {
    expect(loadKafkaConnection({ KAFKA_BROKERS: '127.0.0.1:19092, 127.0.0.1:19094' })).toEqual({
      brokers: ['127.0.0.1:19092', '127.0.0.1:19094'],
      clientId: 'tokencircuit',
      ssl: false,
      sasl: null,
    });
  });

  it('refuses a broker without a port and SASL without credentials', () => {
    expect(() => loadKafkaConnection({ KAFKA_BROKERS: 'localhost' })).toThrow(
      /KAFKA_BROKERS: each broker must be host:port/,
    );
    expect(() => loadKafkaConnection({ KAFKA_BROKERS: 'h:1', KAFKA_SASL_MECHANISM: 'plain' })).toThrow(
      /KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
    );
  });
});
