import { expect } from 'chai';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { appendedKey, isOrderKey, orderKeys } from '../../src/write/link-order.js';

describe('write: order keys of appended links', () => {
  it('are valid keys, increasing with the counter, after every key a list makes itself', () => {
    const counters = [1, 2, 61, 62, 63, 3843, 3844, 10 ** 6, 62 ** 6, 62 ** 7 - 1, 62 ** 7, 62 ** 7 + 1, 2 ** 52];
    const keys = counters.map(appendedKey);
    for (const key of keys) expect(isOrderKey(key), key).to.equal(true);
    for (let i = 1; i < keys.length; i++)
      expect(keys[i - 1] < (keys[i] as string), `${keys[i - 1]} < ${keys[i]}`).to.equal(true);
    // a list's own keys: appends from a0, keys before its first, between two, up to an `f` integer
    const own = [
      ...generateNKeysBetween(null, null, 5000),
      generateKeyBetween(null, 'a0'),
      generateKeyBetween('a0', 'a1'),
      'fzzzzzz',
      generateKeyBetween('fzzzzzz', 'fzzzzzz0'.slice(0, 7) + 'V'),
    ];
    const firstAppended = appendedKey(1);
    for (const key of own) expect(key < firstAppended, `${key} < ${firstAppended}`).to.equal(true);
  });

  it('leave room to move entries around them', () => {
    const [a, b] = [appendedKey(7), appendedKey(8)];
    const between = generateKeyBetween(a, b);
    expect(a < between && between < b).to.equal(true);
    const moved = orderKeys(
      [3, 1, 2],
      new Map([
        [1, a],
        [2, b],
        [3, 'a5'],
      ]),
      new Set([3]),
    );
    const after = generateKeyBetween(b, null);
    expect(isOrderKey(after) && after > b).to.equal(true);
    expect(moved.get(3) !== undefined && (moved.get(3) as string) < a).to.equal(true);
  });
});
