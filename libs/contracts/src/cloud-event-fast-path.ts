import type { CloudEvent } from './cloud-event.js';
import { isStorableTimestamp } from './storable-time.js';

/**
 * CloudEventSchema (cloud-event.ts) compiled by hand for the decode hot path, as agent-event-fast-path.ts
 * does for the agent event: it returns the very object zod would build (context attributes in the
 * schema's order, then the extensions in the record's order) for an envelope zod accepts, or null, and
 * then zod decides and words the refusal.
 */
const ATTRIBUTES = ['specversion', 'id', 'source', 'type', 'time', 'subject', 'datacontenttype', 'dataschema', 'data'];
const ATTRIBUTE_SET = new Set(ATTRIBUTES);
const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const optionalText = (v: unknown): boolean => v === undefined || typeof v === 'string';

export function compiledCloudEvent(candidate: Readonly<Record<string, unknown>>): CloudEvent | null {
  const c = candidate;
  if (
    c['specversion'] !== '1.0' ||
    !nonEmpty(c['id']) ||
    !nonEmpty(c['source']) ||
    !nonEmpty(c['type']) ||
    (c['time'] !== undefined && !isStorableTimestamp(c['time'])) ||
    (c['subject'] !== undefined && !nonEmpty(c['subject'])) ||
    !optionalText(c['datacontenttype']) ||
    !optionalText(c['dataschema'])
  ) {
    return null;
  }
  const out: Record<string, unknown> = {};
  for (const name of ATTRIBUTES) if (c[name] !== undefined) out[name] = c[name];
  for (const name in c) {
    const value = c[name];
    // An attribute present as undefined, or an odd name ("__proto__" among them): zod's call.
    if (value === undefined || !EXTENSION_NAME.test(name)) return null;
    if (ATTRIBUTE_SET.has(name)) continue;
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    ) {
      out[name] = value;
    } else return null;
  }
  return out as CloudEvent;
}
