// `koa-body/unparsed.js` for an app that requires it without having koa-body (Strapi brings it):
// the key under which `strapi::body`'s `includeUnparsed` keeps a body's raw text.
export = Symbol.for('unparsedBody');
