import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@knowing/graph';
import { createSessionTracker, DEFAULT_SESSION_TRACKER_OPTIONS } from '../src/index.js';

const MIN = 60_000;
const T0 = 1_700_000_000_000;

function near(actual: number, expected: number): void {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThan(1e-9);
}

describe('createSessionTracker', () => {
  it('has the seeds defaults', () => {
    expect(DEFAULT_SESSION_TRACKER_OPTIONS).toMatchObject({ halfLifeMs: 180_000, maxBoost: 2, minBoost: 0.01, maxStampsPerSymbol: 20 });
  });

  it('halves a single access every 3 minutes', () => {
    const session = createSessionTracker();
    session.record(['a'], T0);
    near(session.boost('a', T0), 1);
    near(session.boost('a', T0 + 3 * MIN), 0.5);
    near(session.boost('a', T0 + 6 * MIN), 0.25);
    near(session.boost('a', T0 + 9 * MIN), 0.125);
    near(session.boost('a', T0 + 90_000), Math.SQRT1_2);
    near(session.boost('a', T0 + 1_000), Math.exp((-1_000 * Math.LN2) / 180_000));
    expect(session.boost('never', T0)).toBe(0);
  });

  it('adds accesses and caps the sum at 2', () => {
    const session = createSessionTracker();
    session.record(['a', 'b'], T0);
    session.record(['a'], T0 + 3 * MIN);
    near(session.boost('a', T0 + 3 * MIN), 1.5);
    near(session.boost('b', T0 + 3 * MIN), 0.5);
    session.record(['a'], T0 + 3 * MIN + 1);
    expect(session.boost('a', T0 + 3 * MIN + 1)).toBe(2);
  });

  it('counts a symbol once per record call', () => {
    const session = createSessionTracker();
    session.record(['a', 'a', 'a'], T0);
    near(session.boost('a', T0), 1);
  });

  it('keeps at most 20 timestamps per symbol, dropping the oldest', () => {
    const session = createSessionTracker({ maxBoost: 100 });
    for (let i = 0; i < 25; i++) session.record(['a'], T0 + i * 1_000);
    const at = T0 + 24_000;
    let expected = 0;
    for (let i = 5; i < 25; i++) expected += Math.exp((-(24_000 - i * 1_000) * Math.LN2) / 180_000);
    near(session.boost('a', at), expected);
  });

  it('drops boosts under 0.01 and reports only non-zero boosts', () => {
    const session = createSessionTracker();
    session.record(['a'], T0);
    session.record(['b'], T0 + 30 * MIN);
    // 10 half-lives later: 2^-10 ≈ 0.00098 < 0.01.
    expect(session.boost('a', T0 + 30 * MIN)).toBe(0);
    const boosts = session.boosts(['a', 'b', 'c'], T0 + 30 * MIN);
    expect([...boosts.keys()]).toEqual(['b']);
    near(boosts.get('b')!, 1);
  });

  it('ignores accesses later than the asked time (replayable)', () => {
    const session = createSessionTracker();
    session.record(['a'], T0 + MIN);
    expect(session.boost('a', T0)).toBe(0);
    session.record(['a'], T0 - MIN); // recorded out of order
    near(session.boost('a', T0 + MIN), 1 + Math.pow(2, -2 / 3));
  });

  it('reads the injected clock only when no time is given', () => {
    let now = T0;
    const session = createSessionTracker({ clock: () => now });
    session.record(['a']);
    now += 3 * MIN;
    near(session.boost('a'), 0.5);
    near(session.boosts(['a']).get('a')!, 0.5);
  });

  it('prunes faded symbols and resets', () => {
    const session = createSessionTracker();
    session.record(['a', 'b'], T0);
    session.record(['c'], T0 + 60 * MIN); // auto-prune runs: a and b have faded
    expect(session.size()).toBe(1);
    session.prune(T0 + 200 * MIN);
    expect(session.size()).toBe(0);
    session.record(['d'], T0);
    session.reset();
    expect(session.size()).toBe(0);
  });

  it('rejects bad options and non-finite times', () => {
    expect(() => createSessionTracker({ halfLifeMs: 0 })).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument }));
    expect(() => createSessionTracker({ maxStampsPerSymbol: 1.5 })).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument }));
    expect(() => createSessionTracker().boost('a', Number.NaN)).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument }));
  });
});
