// Node's CommonJS loader entry, which `@types/node` does not describe: the app's route files
// `require('@strapi/strapi')` through it.
declare module 'node:module' {
  namespace Module {
    function _load(request: string, parent: unknown, isMain: boolean): unknown;
  }
}
