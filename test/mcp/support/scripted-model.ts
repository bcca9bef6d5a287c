import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** One turn of a scripted model: what it answers, given what it was asked. */
export type ScriptedTurn = (request: ModelRequest) => ModelResponse['output'];

/**
 * An OpenAI Agents SDK Model that answers from a script instead of a network: each getResponse plays the
 * next turn and keeps the request, so a spec can read what the agent gave the model (tool outputs included).
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly turns: readonly ScriptedTurn[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.turns[this.requests.length - 1];
    if (turn === undefined)
      throw new Error(`the script has ${this.turns.length} turns; turn ${this.requests.length} was asked for`);
    return { usage: new Usage(), output: turn(request) };
  }

  // The agent is run without streaming; a streamed run is a mistake in the spec.
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel does not stream');
  }
}

/** A turn that calls one tool. */
export const callsTool =
  (callId: string, name: string, args: Record<string, unknown>): ScriptedTurn =>
  () => [{ type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' }];

/** A turn that ends the run with a message. */
export const says =
  (text: string): ScriptedTurn =>
  () => [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }];

/** The output the agent handed the model for a tool call, as text. */
export function toolOutputOf(request: ModelRequest, callId: string): string | null {
  const input = Array.isArray(request.input) ? request.input : [];
  for (const item of input) {
    if (item.type === 'function_call_result' && item.callId === callId) {
      const output = item.output;
      if (typeof output === 'string') return output;
      if (Array.isArray(output))
        return output
          .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
          .join('\n');
      return JSON.stringify(output);
    }
  }
  return null;
}
