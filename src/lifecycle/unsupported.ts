/** A Strapi API the app's code asked for that Content Service does not offer. */
export class UnsupportedStrapiApi extends Error {
  constructor(what: string, hint = '') {
    super(`${what} is not supported by Content Service${hint ? `: ${hint}` : ''}`);
    this.name = 'UnsupportedStrapiApi';
    // enumerable, so app code answering the error it caught (`ctx.body = err`, as raw-SQL cart and
    // payment controllers do) tells its client why rather than `{"name":"UnsupportedStrapiApi"}`
    Object.defineProperty(this, 'message', {
      value: this.message,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

/**
 * `target` with every other property (or only those of `refusedOnly`) throwing UnsupportedStrapiApi
 * (so an app gets "strapi.db is not supported by Content Service", not "undefined is not a function").
 * Symbols and `then` read as undefined, so the object can be awaited and inspected.
 */
export function strictObject<T extends object>(
  target: T,
  path: string,
  supported: string,
  options: { refusedOnly?: readonly string[] } = {},
): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON' || Reflect.has(object, property))
        return Reflect.get(object, property, receiver) as unknown;
      // an object Strapi keeps open (code stores its own properties there): only the names listed throw
      if (options.refusedOnly && !options.refusedOnly.includes(property)) return undefined;
      throw new UnsupportedStrapiApi(`${path}.${property}`, `it offers ${supported}`);
    },
  });
}
