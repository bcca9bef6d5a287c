import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A POST body as one JSON-RPC message, judged exactly as the SDK's Streamable HTTP transport judges it
 * (JSONRPCMessageSchema); null when it is none. The usual body — a request whose params carry no `_meta` — is
 * recognised by looking at its members: the schema would accept it and give back an equal copy, and its union of four
 * strict object schemas was the largest part of what the gateway allocated per call. Anything else goes to the schema.
 */
export function jsonRpcMessageOf(body: unknown): JSONRPCMessage | null {
  if (isPlainRequest(body)) return body;
  const parsed = JSONRPCMessageSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** A request of exactly the schema's members, a safe-integer or string id and params without `_meta` (or `__proto__`). */
function isPlainRequest(body: unknown): body is JSONRPCMessage {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  for (const name of Object.keys(body)) if (!REQUEST_MEMBERS.has(name)) return false;
  const { jsonrpc, id, method, params } = body as Record<string, unknown>;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return false;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (params === undefined) return true;
  return (
    typeof params === 'object' &&
    params !== null &&
    !Array.isArray(params) &&
    Object.getPrototypeOf(params) === Object.prototype &&
    !Object.hasOwn(params, '_meta') &&
    // JSON.parse makes an own `__proto__` member, which the schema's copy does not keep as one.
    !Object.hasOwn(params, '__proto__')
  );
}

/**
 * Whether a message jsonRpcMessageOf accepted is a request (isJSONRPCRequest without a second schema pass): the
 * schema's four shapes are strict, so only a request has both `id` and `method`.
 */
export const isRequestMessage = (message: JSONRPCMessage): message is JSONRPCRequest =>
  'method' in message && 'id' in message && message.id !== undefined;

/** isInitializeRequest, asked of the schema only when the method is `initialize` (no other message can be one). */
export const isInitializeMessage = (message: JSONRPCMessage): boolean =>
  'method' in message && message.method === 'initialize' && isInitializeRequest(message);
