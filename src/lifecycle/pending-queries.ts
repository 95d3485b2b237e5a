/**
 * The database work the app's code started through `strapi.db.query` and `strapi.entityService`
 * and may not have awaited (strapi-plugin-record-locking's bootstrap and destroy call
 * `strapi.db.query(uid).deleteMany()` without `await`). Strapi's knex pool lets such queries end
 * before it closes; here the service waits for them (bounded) before it closes the database, so
 * they neither fail nor reject unhandled on a closed client. Only what starts once the service is
 * stopping is tracked (the destroy functions' work): tracking handles a rejection, and an
 * unawaited query failing while the service runs must stay as loud as in Strapi.
 */
export interface PendingQueries {
  /** the object with each of its methods' answers tracked (once stopping) until they settle */
  tracked<T extends object>(target: T): T;
  /** from now on, the answers are tracked */
  stopping(): void;
  /** resolves once every tracked answer has settled, or after `timeoutMs` */
  settle(timeoutMs: number): Promise<void>;
}

export function createPendingQueries(): PendingQueries {
  const pending = new Set<Promise<unknown>>();
  let tracking = false;
  const track = (value: unknown): unknown => {
    if (!tracking || !(value instanceof Promise)) return value;
    const settled: Promise<unknown> = value.then(
      (): boolean => pending.delete(settled),
      (): boolean => pending.delete(settled),
    );
    pending.add(settled);
    return value;
  };
  return {
    tracked(target) {
      return new Proxy(target, {
        get(object, key, receiver) {
          const value: unknown = Reflect.get(object, key, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => track(Reflect.apply(value, object, args));
        },
      });
    },
    stopping() {
      tracking = true;
    },
    async settle(timeoutMs) {
      if (pending.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([...pending]), timeout]);
      clearTimeout(timer);
    },
  };
}
