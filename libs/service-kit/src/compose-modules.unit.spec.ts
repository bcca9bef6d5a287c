import type { INestApplicationContext } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { composeModules, type ComposedModule } from './compose-modules.js';

/** A module whose context records its start and close in `log` (the runner only calls close on a context). */
function recorded(name: string, log: string[], fail = false): ComposedModule {
  return {
    name,
    start: async () => {
      if (fail) throw new Error(`${name} refused to start`);
      log.push(`start ${name}`);
      return { close: async () => void log.push(`stop ${name}`) } as unknown as INestApplicationContext;
    },
  };
}

describe('composeModules', () => {
  it('starts in the given order and stops in the stop order, unnamed modules last (latest first), once', async () => {
    const log: string[] = [];
    const fleet = await composeModules(
      ['projector', 'decision', 'notifier', 'api', 'extra'].map((name) => recorded(name, log)),
      ['api', 'projector', 'decision', 'notifier'],
    );
    expect([...fleet.contexts.keys()]).toEqual(['projector', 'decision', 'notifier', 'api', 'extra']);
    await Promise.all([fleet.stop(), fleet.stop()]);
    expect(log).toEqual([
      'start projector',
      'start decision',
      'start notifier',
      'start api',
      'start extra',
      'stop api',
      'stop projector',
      'stop decision',
      'stop notifier',
      'stop extra',
    ]);
  });

  it('a module that fails to start closes the ones started before it, latest first, and the error goes on', async () => {
    const log: string[] = [];
    await expect(
      composeModules(
        [recorded('projector', log), recorded('decision', log), recorded('api', log, true)],
        ['api', 'projector', 'decision'],
      ),
    ).rejects.toThrow('api refused to start');
    expect(log).toEqual(['start projector', 'start decision', 'stop decision', 'stop projector']);
  });
});
