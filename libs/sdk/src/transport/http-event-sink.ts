import { z } from 'zod';
import type { AgentEvent } from '@tokencircuit/contracts';
import { ApiRequestError } from '../errors/sdk-errors.js';
import type { ApiClient } from './api-client.js';
import type { EventSink } from './event-sink.js';

const AcceptedSchema = z.object({ accepted: z.array(z.string()) });

/** Pauses between tries; event ids are stable, so a resend after an unanswered try is never a double count. */
const RETRY_DELAYS_MS = [100, 400];

/** POST /v1/events: the API answers 202 only after the broker acknowledged the event. */
export class HttpEventSink implements EventSink {
  constructor(private readonly api: ApiClient) {}

  async publish(event: AgentEvent): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = (await this.api.post('/v1/events', { events: [event] }, AcceptedSchema)) as z.infer<
          typeof AcceptedSchema
        >;
        if (!answer.accepted.includes(event.id)) {
          throw new ApiRequestError(
            `POST /v1/events: event ${event.id} is missing from the accepted ids`,
            202,
            'unexpected_answer',
          );
        }
        return;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (!(error instanceof ApiRequestError) || !error.retriable || delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async close(): Promise<void> {}
}
