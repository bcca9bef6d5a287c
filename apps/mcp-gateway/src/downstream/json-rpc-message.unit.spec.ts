import fc from 'fast-check';
import { isInitializeRequest, isJSONRPCRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { isInitializeMessage, isRequestMessage, jsonRpcMessageOf } from './json-rpc-message.js';

const viaSchema = (body: unknown) => {
  const parsed = JSONRPCMessageSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
};

const meta = fc.record(
  { progressToken: fc.oneof(fc.integer(), fc.double(), fc.string()), other: fc.jsonValue() },
  { requiredKeys: [] },
);
const params = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'arguments', 'cursor', '__proto__'), fc.jsonValue()),
  fc.record({ name: fc.string(), _meta: meta }, { requiredKeys: [] }),
  fc.jsonValue(),
  fc.array(fc.integer()),
);
const id = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.constant(2 ** 60), fc.boolean());

/** Requests that are valid but for one member now and then: most bodies a gateway sees, and their near misses. */
const nearRequest = fc.record(
  {
    jsonrpc: fc.oneof(
      { weight: 9, arbitrary: fc.constant('2.0') },
      { weight: 1, arbitrary: fc.constantFrom('1.0', 2) },
    ),
    id: fc.oneof({ weight: 4, arbitrary: fc.oneof(fc.string(), fc.integer()) }, { weight: 1, arbitrary: id }),
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom('tools/call', 'tools/list', 'initialize') },
      { weight: 1, arbitrary: fc.integer() },
    ),
    params,
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

/** Bodies near the schema's edges: every member right, wrong, missing or extra. */
const anyMessage = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
    id,
    method: fc.oneof(
      fc.constantFrom('tools/call', 'tools/list', 'notifications/initialized', 'initialize'),
      fc.integer(),
    ),
    params,
    result: fc.dictionary(fc.string(), fc.jsonValue()),
    error: fc.record({ code: fc.oneof(fc.integer(), fc.double()), message: fc.string() }),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(nearRequest, anyMessage);

describe('jsonRpcMessageOf', () => {
  it('given any body, answers what the SDK schema answers', () => {
    fc.assert(
      fc.property(body, (b) => {
        // Through JSON, as a POST body arrives.
        const wire = JSON.parse(JSON.stringify(b)) as unknown;
        const message = jsonRpcMessageOf(wire);
        expect(message).toEqual(viaSchema(wire));
        if (message !== null) {
          expect(isRequestMessage(message)).toBe(isJSONRPCRequest(message));
          expect(isInitializeMessage(message)).toBe(isInitializeRequest(message));
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('given a tools/call request, hands the body itself on (no copy)', () => {
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'a__b', arguments: { q: 1 } } };
    expect(jsonRpcMessageOf(call)).toBe(call);
  });

  it.each([
    ['an id that is no safe integer', { jsonrpc: '2.0', id: 1.5, method: 'tools/call' }],
    ['a member the schema does not know', { jsonrpc: '2.0', id: 1, method: 'tools/call', extra: true }],
    ['params that are a list', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [1] }],
    ['another version', { jsonrpc: '1.0', id: 1, method: 'tools/call' }],
  ])('given %s, refuses it as the schema does', (_, message) => {
    expect(jsonRpcMessageOf(message)).toBeNull();
    expect(viaSchema(message)).toBeNull();
  });

  it('given params with _meta, lets the schema judge them', () => {
    const call = { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { _meta: { progressToken: 1.5 } } };
    expect(jsonRpcMessageOf(call)).toBeNull();
    const good = { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { _meta: { progressToken: 3 } } };
    expect(jsonRpcMessageOf(good)).toEqual(good);
  });

  it('given an initialize request, knows it for one, as the SDK does', () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'spec', version: '1.0.0' } },
    };
    const message = jsonRpcMessageOf(initialize)!;
    expect(isInitializeMessage(message)).toBe(true);
    expect(isInitializeRequest(message)).toBe(true);
    expect(isRequestMessage(message)).toBe(true);
  });
});
