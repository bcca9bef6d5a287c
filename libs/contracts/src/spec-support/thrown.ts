import { expect } from 'vitest';

/** Runs `act`, asserts it threw an instance of `type`, and returns the error for precise assertions. */
export function thrown<E extends Error>(type: abstract new (...args: never[]) => E, act: () => unknown): E {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected ${type.name} to be thrown, but nothing was`);
}
