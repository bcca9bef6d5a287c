import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resourceOf } from './call-arguments.js';
import { failModeOf } from './fail-mode.js';
import { errorTextOf } from './mcp-result.js';
import { stopResult } from './stop-result.js';
import { effectOf } from './tool-effect.js';
import { qualifiedToolName, splitToolName } from './tool-names.js';

describe('tool names: SERVER__TOOL', () => {
  it('splits at the first separator, so an upstream tool may itself contain "__"', () => {
    expect(splitToolName('tickets__create_ticket')).toEqual({ server: 'tickets', tool: 'create_ticket' });
    expect(splitToolName('db__run__sql')).toEqual({ server: 'db', tool: 'run__sql' });
    expect(splitToolName('no_server')).toBeNull();
    expect(splitToolName('__tool')).toBeNull();
    expect(splitToolName('server__')).toBeNull();
  });

  it('round-trips every server name the config accepts with every MCP tool name', () => {
    const server = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,10}(_[A-Za-z0-9-]{1,5})?$/);
    const tool = fc.stringMatching(/^[A-Za-z0-9_.-]{1,30}$/);
    fc.assert(
      fc.property(server, tool, (s, t) => {
        expect(splitToolName(qualifiedToolName(s, t))).toEqual({ server: s, tool: t });
      }),
    );
  });
});

describe('the effect a call is declared with', () => {
  it('config first; annotations only when trusted; unknown otherwise', () => {
    expect(effectOf('write', { readOnlyHint: true }, true)).toBe('write');
    expect(effectOf(undefined, { readOnlyHint: true }, true)).toBe('read');
    expect(effectOf(undefined, { idempotentHint: true }, true)).toBe('idempotent_write');
    expect(effectOf(undefined, { destructiveHint: false }, true)).toBe('write');
    expect(effectOf(undefined, undefined, true)).toBe('write');
    expect(effectOf(undefined, { readOnlyHint: true }, false)).toBe('unknown');
  });

  it('untrusted hints never change the effect, whatever they say', () => {
    const hint = fc.option(fc.boolean(), { nil: undefined });
    fc.assert(
      fc.property(hint, hint, hint, (readOnlyHint, idempotentHint, destructiveHint) => {
        expect(effectOf(undefined, { readOnlyHint, idempotentHint, destructiveHint }, false)).toBe('unknown');
      }),
    );
  });
});

describe('the resource and the fail mode of a call', () => {
  it('the resource is the configured argument, else the tool itself', () => {
    expect(resourceOf('tickets__create', { project: 'ops' }, 'project')).toBe('ops');
    expect(resourceOf('tickets__create', { project: 7 }, 'project')).toBe('7');
    expect(resourceOf('tickets__create', {}, 'project')).toBe('tickets__create');
    expect(resourceOf('tickets__create', { project: 'ops' }, undefined)).toBe('tickets__create');
  });

  it('the most specific fail mode wins; unset, reads fail open and everything else closed', () => {
    expect(failModeOf('write', 'open', 'closed', 'closed')).toBe('open');
    expect(failModeOf('write', null, 'open', 'closed')).toBe('open');
    expect(failModeOf('read', null, null, 'closed')).toBe('closed');
    expect(failModeOf('read', null, null, null)).toBe('open');
    for (const effect of ['write', 'idempotent_write', 'unknown'] as const)
      expect(failModeOf(effect, null, null, null)).toBe('closed');
  });
});

describe('results the gateway reads and writes', () => {
  it("an isError result's text is its text blocks, else its structured content", () => {
    expect(
      errorTextOf({ content: [{ type: 'text', text: 'permission denied' }, { type: 'image' }], isError: true }),
    ).toBe('permission denied');
    expect(errorTextOf({ content: [], structuredContent: { code: 403 }, isError: true })).toBe('{"code":403}');
    expect(errorTextOf({ content: [], isError: true })).toBe('the tool reported an error without text');
    expect(errorTextOf({ content: [{ type: 'text', text: 'x'.repeat(5_000) }] })).toHaveLength(2_000);
  });

  const facts = {
    tool: 'tickets__create_ticket',
    message:
      'TokenCircuit stopped tickets__create_ticket: an earlier attempt may already have taken effect. Do not send it again; check whether the earlier attempt took effect first.',
    nextAllowedAction: 'reconcile_before_retry',
    level: 'block',
    artifact: { keyId: 'k-1', failureClass: 'ambiguous_effect', interventionId: null },
    source: 'preflight',
  } as const;

  it('a stop is an isError result: the message as text, the next action, level and artifact as structuredContent', () => {
    expect(stopResult(facts, false)).toEqual({
      content: [{ type: 'text', text: facts.message }],
      isError: true,
      structuredContent: {
        tokencircuit: 'stopped',
        tool: facts.tool,
        source: 'preflight',
        nextAllowedAction: 'reconcile_before_retry',
        level: 'block',
        artifact: facts.artifact,
      },
    });
  });

  it('for a tool with an outputSchema the same facts are a second text block (clients validate structuredContent)', () => {
    const result = stopResult(facts, true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({ type: 'text', text: facts.message });
    expect(JSON.parse(result.content[1]!.text!)).toMatchObject({ nextAllowedAction: 'reconcile_before_retry' });
  });
});
