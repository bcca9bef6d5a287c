import { describe, expect, it } from 'vitest';
import { envelopeCut, type EnvelopeColumns } from './cloud-event-envelope.js';

const columns: EnvelopeColumns = {
  id: 'tenant-2:run-1-call-1-1:out',
  source: '/tenants/tenant-2/agents/agent-2',
  type: 'tool_call.outcome',
  time: '2026-11-01T00:00:00.047Z',
  tenant: 'tenant-2',
  run: 'run-1',
};

const envelope = (c: EnvelopeColumns, version = 'v3') =>
  `{"specversion":"1.0","id":"${c.id}","source":"${c.source}","type":"dev.tokencircuit.${c.type}.${version}",` +
  `"time":"${c.time}","datacontenttype":"application/json","tenantid":"${c.tenant}"` +
  (c.run === null ? '' : `,"runid":"${c.run}"`);

const TAIL = ',"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","data":{"status":"failed"}}';

describe('envelopeCut', () => {
  it('cuts a CloudEvent where the envelope its columns repeat ends, with the type version no column holds', () => {
    const text = envelope(columns) + TAIL;
    expect(envelopeCut(columns, text)).toEqual({ length: text.length - TAIL.length, typeVersion: 'v3' });
    expect(text.slice(envelopeCut(columns, text)!.length)).toBe(TAIL);
  });

  it('cuts an event without a run before its data, and keeps a runid the run column does not know in the tail', () => {
    const resolution = { ...columns, type: 'operator.resolution', run: null };
    const text = envelope(resolution, 'v1') + ',"data":{"by":"ops"}}';
    expect(envelopeCut(resolution, text)).toEqual({ length: envelope(resolution, 'v1').length, typeVersion: 'v1' });
    const stray = envelope(resolution, 'v1') + ',"runid":"run-9","data":{}}';
    expect(stray.slice(envelopeCut(resolution, stray)!.length)).toBe(',"runid":"run-9","data":{}}');
  });

  it('keeps the whole text when a column is not what the envelope says', () => {
    const text = envelope(columns) + TAIL;
    for (const other of [
      { ...columns, id: 'another-id' },
      { ...columns, source: '/tenants/tenant-2/agents/agent-3' },
      { ...columns, type: 'tool_call.requested' },
      { ...columns, tenant: 'tenant-3' },
      { ...columns, run: 'run-2' },
      { ...columns, time: '2026-11-01T00:00:00.048Z' },
    ]) {
      expect(envelopeCut(other, text)).toBeNull();
    }
    expect(envelopeCut(columns, text.replace('"specversion":"1.0"', '"specversion":"1.1"'))).toBeNull();
    expect(envelopeCut(columns, text.replace('application/json', 'text/plain'))).toBeNull();
    expect(envelopeCut(columns, `{"id":"${columns.id}"}`)).toBeNull();
  });

  it('keeps the whole text of a time the SQL would write otherwise (not milliseconds in UTC, or not an instant as written)', () => {
    for (const time of [
      '2026-11-01T00:00:00Z',
      '2026-11-01T00:00:00.047123Z',
      '2026-11-01T01:00:00.047+01:00',
      '2026-11-01T24:00:00.000Z',
      '2026-11-01T23:59:60.000Z',
      '2026-02-30T00:00:00.000Z',
      '0999-11-01T00:00:00.000Z',
    ]) {
      const c = { ...columns, time };
      expect(envelopeCut(c, envelope(c) + TAIL)).toBeNull();
    }
  });

  it('keeps the whole text when a column needs escaping or is not ASCII (JSON and SQL would not write it alike, or count it alike)', () => {
    for (const c of [
      { ...columns, id: 'call-"quoted"' },
      { ...columns, id: 'back\\slash' },
      { ...columns, run: 'run\n1' },
      { ...columns, source: '/tenants/tenant-2/agents/agënt' },
      { ...columns, tenant: 'tenant-\u{1F600}' },
    ]) {
      expect(envelopeCut(c, envelope(c) + TAIL)).toBeNull();
    }
  });

  it('keeps the whole text when the type version is not a plain word', () => {
    expect(envelopeCut(columns, envelope(columns, 'v3.1') + TAIL)).toBeNull();
    expect(envelopeCut(columns, envelope(columns, '') + TAIL)).toBeNull();
  });
});
