import type { KafkaRecord } from '../kafka-binding.js';

const bytes = (v: Buffer | string) => (typeof v === 'string' ? Buffer.from(v, 'utf8') : v);

/** What crosses the wire: kafkajs writes strings as UTF-8 and hands key, value and headers back as Buffers. */
export function overTheWire(record: KafkaRecord): KafkaRecord {
  const headers: KafkaRecord['headers'] = {};
  for (const [name, value] of Object.entries(record.headers)) if (value !== undefined) headers[name] = bytes(value);
  return {
    key: record.key === null ? null : bytes(record.key),
    value: record.value === null ? null : bytes(record.value),
    headers,
  };
}
