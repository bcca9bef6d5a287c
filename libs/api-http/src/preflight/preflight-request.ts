import { z } from 'zod';
import { ToolCallSchema } from '@tokencircuit/contracts';

/** POST /v1/preflight body: the call about to run (the tenant comes from the API key). */
export const PreflightRequestSchema = z.object({ call: ToolCallSchema }).strict();
