import { describe, expect, it } from 'vitest';
import { InProcessBus, type BusRecord } from './in-process-bus.js';

describe('InProcessBus', () => {
  it('keeps per-key order and Kafka-like offsets per partition', async () => {
    const bus = new InProcessBus(3);
    const seen: BusRecord[] = [];
    bus.subscribe('t', async (records) => void seen.push(...records));
    await bus.publish(
      't',
      [1, 2, 3].map((n) => ({ key: 'run-a', value: `a${n}` })),
    );
    await bus.publish('t', [{ key: 'run-a', value: 'a4' }]);
    const values = seen.map((r) => r.value!.toString());
    expect(values).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(seen.map((r) => r.offset)).toEqual(['0', '1', '2', '3']);
    expect(new Set(seen.map((r) => r.partition)).size).toBe(1);
  });

  it('resolves publish only after the subscriber handled the records, and rejects when it fails', async () => {
    const bus = new InProcessBus(1);
    let handled = 0;
    bus.subscribe('t', async (records) => {
      await new Promise((r) => setTimeout(r, 5));
      if (records.some((r) => r.value!.toString() === 'poison-handler')) throw new Error('handler failed');
      handled += records.length;
    });
    await bus.publish('t', [{ key: null, value: 'x' }]);
    expect(handled).toBe(1);
    await expect(bus.publish('t', [{ key: null, value: 'poison-handler' }])).rejects.toThrow('handler failed');
  });

  it('coalesces concurrent publishes into batches without losing any', async () => {
    const bus = new InProcessBus(2, 50);
    const batches: number[] = [];
    let total = 0;
    bus.subscribe('t', async (records) => {
      batches.push(records.length);
      total += records.length;
    });
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => bus.publish('t', [{ key: `k${i % 7}`, value: String(i) }])),
    );
    expect(total).toBe(200);
    expect(batches.length).toBeLessThan(200);
    expect(Math.max(...batches)).toBeLessThanOrEqual(50);
  });

  it('continues offsets after resume', async () => {
    const bus = new InProcessBus(1);
    const offsets: string[] = [];
    bus.subscribe('t', async (records) => void offsets.push(...records.map((r) => r.offset)));
    bus.resume('t', new Map([[0, 42n]]));
    await bus.publish('t', [{ key: null, value: 'x' }]);
    expect(offsets).toEqual(['42']);
  });

  it('delivers a typed value as it was published (no encoding), and bytes as a copy of their own', async () => {
    const bus = new InProcessBus(2);
    const typed: BusRecord<{ readonly id: string }>[] = [];
    const bytes: BusRecord[] = [];
    bus.subscribe<{ readonly id: string }>('typed', async (records) => void typed.push(...records));
    bus.subscribe('bytes', async (records) => void bytes.push(...records));
    const event = { id: 'e-1' };
    const buffer = Buffer.from('abc');
    await bus.publish('typed', [{ key: 'k', value: event }]);
    await bus.publish('bytes', [{ key: 'k', value: buffer }]);
    expect(typed[0]!.value).toBe(event);
    buffer.write('xyz');
    expect(bytes[0]!.value!.toString()).toBe('abc');
  });
});
