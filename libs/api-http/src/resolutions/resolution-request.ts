import { OperatorResolutionDataSchema } from '@tokencircuit/contracts';

/** POST /v1/resolutions body: an operator.resolution's data; id, tenant and time are the API's to set. */
export const ResolutionRequestSchema = OperatorResolutionDataSchema.strict();
