import { describe, expect, it } from 'vitest';
import { providerMeaning } from './provider-codes.js';
import { dialectCodeMeaning } from './provider-dialect.js';
import { amqpNameMeaning, AMQP_NUMBERS } from './provider-amqp.js';
import { LDAP_NUMBERS } from './provider-directory.js';
import { KAFKA_NUMBERS } from './provider-kafka.js';

describe('brokers and directories: Kafka, AMQP 0-9-1, LDAP', () => {
  it('gives every Kafka number a name the table knows', () => {
    for (const [n, name] of KAFKA_NUMBERS) {
      expect(providerMeaning(name), `${n} ${name}`).not.toBeNull();
      expect(dialectCodeMeaning('kafka', String(n))?.reason).toBe(`kafka:${name}`);
    }
  });

  it('tells a Kafka batch the broker refused from one it may have written', () => {
    expect(providerMeaning('NOT_LEADER_OR_FOLLOWER')?.effect).toBe('rejected');
    expect(providerMeaning('NOT_ENOUGH_REPLICAS')?.effect).toBe('rejected');
    expect(providerMeaning('NOT_ENOUGH_REPLICAS_AFTER_APPEND')?.effect).toBe('indeterminate');
    expect(providerMeaning('REQUEST_TIMED_OUT')?.effect).toBe('indeterminate');
  });

  it('gives every AMQP reply code a meaning, read only where AMQP speaks', () => {
    for (const [n, name] of AMQP_NUMBERS) {
      expect(amqpNameMeaning(name), `${n} ${name}`).not.toBeNull();
      expect(dialectCodeMeaning('amqp', String(n))?.reason).toBe(`amqp:${n}`);
    }
    // The same word from S3 is a concurrency conflict; from RabbitMQ it is a refused redeclaration.
    expect(amqpNameMeaning('PRECONDITION-FAILED')?.failureClass).toBe('validation');
    expect(providerMeaning('PreconditionFailed')?.concurrency).toBe(true);
  });

  it('reads LDAP result codes in the ldap dialect', () => {
    expect(dialectCodeMeaning('ldap', '49')).toMatchObject({
      failureClass: 'permission',
      reason: 'ldap:49:invalidCredentials',
    });
    expect(dialectCodeMeaning('ldap', '32')?.failureClass).toBe('missing_resource');
    expect(LDAP_NUMBERS.get(68)?.[1].duplicateOnRetry).toBe(true);
  });
});
