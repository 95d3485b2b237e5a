/** A seeded pseudo-random source (mulberry32), so a fuzz run can be replayed from its seed. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** an integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** some of the items, in random order */
  some<T>(items: readonly T[], max = items.length): T[] {
    const pool = [...items];
    const out: T[] = [];
    const n = this.int(0, Math.min(max, pool.length));
    for (let i = 0; i < n; i++) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0] as T);
    return out;
  }

  /** one of several generators, by weight */
  weighted<T>(choices: readonly (readonly [number, () => T])[]): T {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [weight, make] of choices) {
      roll -= weight;
      if (roll < 0) return make();
    }
    const last = choices[choices.length - 1];
    if (!last) throw new Error('weighted choice from an empty list');
    return last[1]();
  }
}
