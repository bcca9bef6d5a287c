import { describe, expect, it } from 'vitest';
import { colours, coloursEnabled } from './colours.js';

describe('coloursEnabled: colours only for a person at a terminal', () => {
  it('a terminal without NO_COLOR gets colours', () => {
    expect(coloursEnabled({ json: false, isTTY: true, env: {} })).toBe(true);
  });

  it('--json never has colours, even on a terminal', () => {
    expect(coloursEnabled({ json: true, isTTY: true, env: {} })).toBe(false);
  });

  it('NO_COLOR with any non-empty value turns them off; an empty NO_COLOR does not', () => {
    expect(coloursEnabled({ json: false, isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(coloursEnabled({ json: false, isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
  });

  it('a pipe or a file gets plain text', () => {
    expect(coloursEnabled({ json: false, isTTY: false, env: {} })).toBe(false);
    expect(coloursEnabled({ json: false, isTTY: undefined, env: {} })).toBe(false);
  });

  it('disabled colours leave the text exactly as it was', () => {
    expect(colours(false).red('denied')).toBe('denied');
    expect(colours(true).red('denied')).not.toBe('denied');
  });
});
