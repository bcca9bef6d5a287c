import { existsSync, readFileSync } from 'node:fs';
import type { UpstreamCall } from './test-upstream-server.js';

/** Every tool call that reached a test upstream writing to `callsFile`, in arrival order. */
export function readUpstreamCalls(callsFile: string): UpstreamCall[] {
  if (!existsSync(callsFile)) return [];
  return readFileSync(callsFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as UpstreamCall);
}

/** How many calls of `tool` reached the upstream. */
export const upstreamCallCount = (callsFile: string, tool: string): number =>
  readUpstreamCalls(callsFile).filter((call) => call.tool === tool).length;
