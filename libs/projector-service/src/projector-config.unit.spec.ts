import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tokencircuit/config';
import { loadProjectorSettings } from './projector-config.js';

describe('projector settings: PROJECTOR_STATE_CACHE_KEYS', () => {
  it('defaults to 10,000 keys, takes 0 to turn the cache off', () => {
    expect(loadProjectorSettings({}).PROJECTOR_STATE_CACHE_KEYS).toBe(10_000);
    expect(loadProjectorSettings({ PROJECTOR_STATE_CACHE_KEYS: '0' }).PROJECTOR_STATE_CACHE_KEYS).toBe(0);
  });

  it.each(['-1', '1.5', 'lots', '1000001'])('refuses %s at start, naming the variable', (value) => {
    expect(() => loadProjectorSettings({ PROJECTOR_STATE_CACHE_KEYS: value })).toThrow(ConfigError);
    expect(() => loadProjectorSettings({ PROJECTOR_STATE_CACHE_KEYS: value })).toThrow(/PROJECTOR_STATE_CACHE_KEYS/);
  });
});
