import { z } from 'zod';
import {
  BackoffSchema,
  DecisionLevelSchema,
  DiagnosticArtifactSchema,
  NextActionSchema,
  type ToolCall,
} from '@tokencircuit/contracts';
import type { ApiClient } from './api-client.js';

const DecisionSchema = z.object({
  intervene: z.boolean(),
  level: DecisionLevelSchema,
  nextAction: NextActionSchema,
  backoff: BackoffSchema.nullable(),
  safetyJustification: z.string(),
});

/** POST /v1/preflight's answer (the API's PreflightResponse). */
export const PreflightAnswerSchema = z.object({
  allow: z.boolean(),
  reason: z.string(),
  decision: DecisionSchema.nullable(),
  artifact: DiagnosticArtifactSchema.nullable(),
});
export type PreflightAnswer = z.infer<typeof PreflightAnswerSchema>;

/** "May this call run now?", answered from the fleet's projected failure state. */
export class PreflightClient {
  constructor(private readonly api: ApiClient) {}

  async check(call: ToolCall): Promise<PreflightAnswer> {
    return (await this.api.post('/v1/preflight', { call }, PreflightAnswerSchema)) as PreflightAnswer;
  }
}
