/**
 * `derive` with its results kept by their argument while that is a frozen object: a stage the
 * stage cache hands out again (protocol/stage-cache.ts) is derived from once; any other value,
 * which belongs to one command and may still change, is derived from each time.
 */
export function frozenMemo<K, V>(derive: (key: K) => V): (key: K) => V {
  const memo = new WeakMap<object, V>();
  return (key) => {
    const frozen = typeof key === 'object' && key !== null && Object.isFrozen(key);
    if (frozen && memo.has(key)) return memo.get(key) as V;
    const value = derive(key);
    if (frozen) memo.set(key, value);
    return value;
  };
}
