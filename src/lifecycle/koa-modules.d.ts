// The parts of @koa/router and koa-compose `strapi.server` uses (neither ships its own types; the
// DefinitelyTyped ones pull in all of Koa's, whose `Context` is not the Koa-like context used here).

declare module 'koa-compose' {
  type Next = () => Promise<unknown>;
  type Middleware<C> = (ctx: C, next: Next) => unknown;
  function compose<C>(middleware: ReadonlyArray<Middleware<C>>): (ctx: C, next?: Next) => Promise<unknown>;
  export default compose;
}

declare module '@koa/router' {
  type Next = () => Promise<unknown>;
  type Middleware<C> = (ctx: C, next: Next) => unknown;
  interface Layer {
    path: string;
    methods: string[];
    /** the layer's middlewares */
    stack: unknown[];
  }
  interface Match {
    /** a layer matched the path and the method */
    route: boolean;
    /** the layers that match the path, whatever their methods */
    path: Layer[];
    /** the layers that match the path and the method, in the order they were added */
    pathAndMethod: Layer[];
  }
  class Router<C = unknown> {
    constructor(options?: { prefix?: string });
    stack: Layer[];
    match(path: string, method: string): Match;
    register(path: string, methods: string[], middleware: ReadonlyArray<Middleware<C>>): Layer;
    get(path: string, ...middleware: Array<Middleware<C>>): this;
    post(path: string, ...middleware: Array<Middleware<C>>): this;
    put(path: string, ...middleware: Array<Middleware<C>>): this;
    patch(path: string, ...middleware: Array<Middleware<C>>): this;
    delete(path: string, ...middleware: Array<Middleware<C>>): this;
    all(path: string, ...middleware: Array<Middleware<C>>): this;
    use(...middleware: Array<Middleware<C> | string>): this;
    routes(): Middleware<C>;
    allowedMethods(): Middleware<C>;
  }
  export default Router;
}
