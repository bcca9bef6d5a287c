import type { ArgumentsDigest, ToolCall } from '@tokencircuit/contracts';
import { redactCall } from '../redact/index.js';
import { argumentsFingerprintWithout } from '../support/arguments-fingerprint.js';
import { volatileOf } from './call-digest.js';
import { DEFAULT_NO_PROGRESS } from './progress-policy.js';

/**
 * What a producer (the SDK's call pipeline, the MCP gateway through it) sends as a successful outcome's
 * `argumentsDigest`: the fingerprint of the call's arguments as the API will store them — redacted the way the
 * API redacts a call — without the default policy's volatile fields. It is the digest the fold would compute
 * for the stored event under that policy (a spec holds the two equal), and it never carries what redaction
 * removes.
 */
export function producerArgumentsDigest(call: ToolCall): ArgumentsDigest {
  // A producer does not know its tenant's policy: it leaves out the default one's volatile fields, and a
  // tenant that changes them gets digests computed by the core.
  const without = volatileOf(DEFAULT_NO_PROGRESS, call.tool);
  return { digest: argumentsFingerprintWithout(redactCall(call).arguments, without), without: [...without] };
}
