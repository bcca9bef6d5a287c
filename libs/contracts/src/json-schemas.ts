import { z } from 'zod';
import {
  AgentEventSchema,
  OperatorResolutionSchema,
  ToolCallOutcomeDataV1Schema,
  ToolCallOutcomeDataV2Schema,
  ToolCallOutcomeSchema,
  ToolCallRequestedSchema,
  VerifierResultDataV1Schema,
  VerifierResultSchema,
} from './agent-events.js';
import { CloudEventSchema } from './cloud-event.js';
import { DiagnosticArtifactSchema, InterventionDataSchema } from './intervention.js';
import { EpisodeEventDataSchema } from './episode.js';
import { NotifierDeadLetterSchema } from './notifier-dead-letter.js';

/** One published JSON Schema: the file it lives in under docs/schemas/, and its content. */
export interface ContractJsonSchema {
  readonly fileName: string;
  readonly schema: Record<string, unknown>;
}

const published: readonly { fileName: string; title: string; description: string; zod: z.ZodType }[] = [
  {
    fileName: 'agent-event.schema.json',
    title: 'AgentEvent',
    description: 'Any event an agent, SDK or operator publishes (JSON form; in Kafka it rides as CloudEvent data).',
    zod: AgentEventSchema,
  },
  {
    fileName: 'tool-call-requested.schema.json',
    title: 'ToolCallRequested',
    description: 'A tool call about to run.',
    zod: ToolCallRequestedSchema,
  },
  {
    fileName: 'tool-call-outcome.schema.json',
    title: 'ToolCallOutcome',
    description:
      'What happened to a tool call: succeeded (with the digest of its result), failed (with its raw error) or unknown. Contract v3 (CloudEvent type …tool_call.outcome.v3).',
    zod: ToolCallOutcomeSchema,
  },
  {
    fileName: 'tool-call-outcome-v2-data.schema.json',
    title: 'ToolCallOutcomeDataV2',
    description:
      'Data of tool_call.outcome contract v2 (CloudEvent type …tool_call.outcome.v2), still accepted and read as v3 with no result digest.',
    zod: ToolCallOutcomeDataV2Schema,
  },
  {
    fileName: 'tool-call-outcome-v1-data.schema.json',
    title: 'ToolCallOutcomeDataV1',
    description:
      'Data of tool_call.outcome contract v1 (CloudEvent type …tool_call.outcome.v1), still accepted and converted to v3 on arrival.',
    zod: ToolCallOutcomeDataV1Schema,
  },
  {
    fileName: 'verifier-result.schema.json',
    title: 'VerifierResult',
    description:
      'The finding of a verifier (read-after-write, empty result, resource resolution, same verifier) on a call: confirmed, refuted or inconclusive. Contract v2 (CloudEvent type …verifier.result.v2).',
    zod: VerifierResultSchema,
  },
  {
    fileName: 'verifier-result-v1-data.schema.json',
    title: 'VerifierResultDataV1',
    description:
      'Data of verifier.result contract v1 (CloudEvent type …verifier.result.v1; in the JSON form, data with `passed` and no `finding`), still accepted and converted to v2 on arrival.',
    zod: VerifierResultDataV1Schema,
  },
  {
    fileName: 'operator-resolution.schema.json',
    title: 'OperatorResolution',
    description: 'An operator resolving a failure-state key (auth granted, resource confirmed, reset, acknowledged).',
    zod: OperatorResolutionSchema,
  },
  {
    fileName: 'intervention.schema.json',
    title: 'Intervention',
    description: 'Data of the intervention CloudEvent published to tokencircuit.interventions.v1.',
    zod: InterventionDataSchema,
  },
  {
    fileName: 'episode-event.schema.json',
    title: 'EpisodeEvent',
    description:
      'Data of the episode lifecycle CloudEvents (triggered, escalated, acknowledged, resolved) on tokencircuit.episodes.v1.',
    zod: EpisodeEventDataSchema,
  },
  {
    fileName: 'notifier-dead-letter.schema.json',
    title: 'NotifierDeadLetter',
    description:
      'A notification that could not be delivered (permanent refusal or last attempt spent), on tokencircuit.notifier.dlq.v1.',
    zod: NotifierDeadLetterSchema,
  },
  {
    fileName: 'diagnostic-artifact.schema.json',
    title: 'DiagnosticArtifact',
    description: "The RFC's DiagnosticArtifact: the immutable evidence attached to every intervention.",
    zod: DiagnosticArtifactSchema,
  },
  {
    fileName: 'cloud-event.schema.json',
    title: 'CloudEvent',
    description: 'CloudEvents 1.0 envelope as this product reads it (JSON format, extensions as scalars).',
    zod: CloudEventSchema,
  },
];

/**
 * The JSON Schemas of every published contract, generated from the zod schemas (the single source).
 *
 * Input mode: the wire carries what producers send, before zod fills defaults, so a field with a default is
 * optional here and unknown fields are allowed (zod strips them; additive changes stay compatible within v1).
 * Draft-07: the dialect AsyncAPI 3.0 schemas build on and ajv's default.
 */
export function contractJsonSchemas(): readonly ContractJsonSchema[] {
  return published.map(({ fileName, title, description, zod }) => {
    const { $schema, ...body } = z.toJSONSchema(zod, { io: 'input', target: 'draft-07', unrepresentable: 'throw' });
    return { fileName, schema: { $schema, title, description, ...body } };
  });
}
