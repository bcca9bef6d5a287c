import {
  meaningOf,
  missingResource,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';

/**
 * JSON-RPC 2.0 §5.1 error codes, plus the codes MCP gives meaning to. Where MCP and other JSON-RPC
 * dialects (LSP, EIP-1474) disagree on the implementation-defined range, MCP wins: the callers are
 * agent tools.
 */
const CODES: Readonly<Record<number, Semantics>> = {
  [-32700]: validation(), // parse error: invalid JSON was received
  [-32600]: validation(), // invalid request
  // method not found: like HTTP 404 for the endpoint; discovery (tools/list) resolves it.
  [-32601]: missingResource(),
  [-32602]: validation(), // invalid params (MCP also uses it for "Unknown tool")
  [-32603]: transient('indeterminate', { generic: true }), // internal error
  [-32002]: missingResource(), // MCP: resource not found (resources/read)
  [-32001]: transient('indeterminate'), // MCP SDK: request timeout
  [-32000]: transient('indeterminate'), // MCP SDK: connection closed
};

export function jsonRpcMeaning(code: number): ErrorMeaning | null {
  const known = CODES[code];
  if (known) return meaningOf(known, `jsonrpc:${code}`);
  // -32099..-32000: "reserved for implementation-defined server-errors".
  if (code >= -32099 && code <= -32000)
    return meaningOf(transient('indeterminate', { generic: true }), `jsonrpc:${code}`);
  return null;
}
