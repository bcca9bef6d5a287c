import { describe, expect, it } from 'vitest';
import { toKafkaRecord, type InterventionData } from '@tokencircuit/contracts';
import { interventionRecord } from '@tokencircuit/contracts';
import { liveSignalOf } from './live-signal.js';

describe('live signal of an interventions-topic record', () => {
  it('names the tenant, the intervention, its key and run', () => {
    const data = {
      interventionId: 'i-1',
      tenant: 'acme',
      run: 'run-7',
      keyId: 'fleet|acme|k',
    } as unknown as InterventionData;
    const record = interventionRecord(data);
    expect(liveSignalOf(record)).toEqual({
      tenant: 'acme',
      type: 'intervention.issued.v1',
      id: 'i-1',
      keyId: 'fleet|acme|k',
      run: 'run-7',
    });
  });

  it('skips what is no CloudEvent or names no tenant, instead of throwing into the consumer', () => {
    expect(liveSignalOf({ key: null, value: Buffer.from('{'), headers: {} })).toBeNull();
    const anonymous = toKafkaRecord(
      { specversion: '1.0', id: 'x', source: '/s', type: 'dev.tokencircuit.other', data: {} },
      'structured',
      null,
    );
    expect(liveSignalOf(anonymous)).toBeNull();
  });
});
