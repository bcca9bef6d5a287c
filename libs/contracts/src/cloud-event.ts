import { z } from 'zod';
import { StorableTimestamp } from './storable-time.js';

/**
 * CloudEvents 1.0 structured envelope (https://github.com/cloudevents/spec, core spec + Kafka binding).
 * Extension attribute names follow the spec: lower-case a-z0-9, at most 20 characters.
 */
export const CLOUDEVENTS_SPEC_VERSION = '1.0';
export const CE_TYPE_PREFIX = 'dev.tokencircuit.';
export const CE_CONTENT_TYPE_STRUCTURED = 'application/cloudevents+json; charset=UTF-8';
export const CE_CONTENT_TYPE_DATA = 'application/json';

const ExtensionName = /^[a-z0-9]{1,20}$/;

export const CloudEventSchema = z
  .object({
    specversion: z.literal(CLOUDEVENTS_SPEC_VERSION),
    id: z.string().min(1),
    source: z.string().min(1),
    type: z.string().min(1),
    time: StorableTimestamp.optional(),
    subject: z.string().min(1).optional(),
    datacontenttype: z.string().optional(),
    dataschema: z.string().optional(),
    data: z.unknown().optional(),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean()]))
  .superRefine((event, ctx) => {
    for (const name of Object.keys(event)) {
      if (!ExtensionName.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid CloudEvents attribute name` });
      }
    }
  })
  // The attribute-name rule for the generated JSON Schema, which cannot see the refinement above.
  .meta({ propertyNames: { pattern: ExtensionName.source } });
/** A CloudEvent: required and optional context attributes, extensions (scalars), and data. */
export interface CloudEvent<T = unknown> {
  specversion: typeof CLOUDEVENTS_SPEC_VERSION;
  id: string;
  source: string;
  type: string;
  time?: string;
  subject?: string;
  datacontenttype?: string;
  dataschema?: string;
  data?: T;
  /** Extension attributes, e.g. tenantid, runid, traceparent. */
  [extension: string]: string | number | boolean | T | undefined;
}
