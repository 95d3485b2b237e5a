/**
 * `strapi.api`: each api of the app (`src/api/<name>`) as Strapi v4's module of it, which plugins
 * walk in their register hook (strapi-plugin-transformer adds a middleware to every route):
 * `routes` (the route files' routers by file name, live: what register changes is served),
 * `contentTypes` / `contentType(name)`, `controllers` / `controller(name)`, `services` /
 * `service(name)` and `config(path, default)` (`api.<name>.<path>` of the configuration).
 */
import type { MethodBag } from './core-controller.js';
import type { ApiRouter } from './content-api-routes.js';
import { strictObject } from './unsupported.js';

export interface StrapiApiModule<ContentTypeInfo> {
  readonly routes: Record<string, ApiRouter>;
  readonly contentTypes: Record<string, ContentTypeInfo>;
  contentType(name: string): ContentTypeInfo | undefined;
  readonly controllers: Record<string, MethodBag>;
  controller(name: string): MethodBag | undefined;
  readonly services: Record<string, unknown>;
  service(name: string): unknown;
  config(path: string, defaultValue?: unknown): unknown;
}

/** What the `strapi` object knows of the apis. */
export interface StrapiApiSource<ContentTypeInfo> {
  /** the api names: content-types, route files, controllers and services */
  names(): string[];
  /** each api's routers by file name */
  routers(): Record<string, Record<string, ApiRouter>>;
  /** the content-types of `api::<api>.*`, by uid */
  contentTypes(): Record<string, ContentTypeInfo>;
  controllerUids(): string[];
  controller(uid: string): MethodBag | undefined;
  serviceUids(): string[];
  service(uid: string): unknown;
  config(path: string, defaultValue?: unknown): unknown;
}

const MODULE_API =
  'routes, contentTypes, contentType(name), controllers, controller(name), services, service(name), config(path)';

/** The names under `api::<api>.` of a list of uids. */
function namesIn(api: string, uids: string[]): string[] {
  const prefix = `api::${api}.`;
  return uids.filter((uid) => uid.startsWith(prefix)).map((uid) => uid.slice(prefix.length));
}

/** `{ name: value }` whose values are made when read. */
function lazyByName<T>(names: string[], get: (name: string) => T): Record<string, T> {
  const map: Record<string, T> = {};
  for (const name of names) Object.defineProperty(map, name, { enumerable: true, get: () => get(name) });
  return map;
}

export function strapiApi<ContentTypeInfo>(source: StrapiApiSource<ContentTypeInfo>) {
  const modules = new Map<string, StrapiApiModule<ContentTypeInfo>>();
  const moduleOf = (api: string): StrapiApiModule<ContentTypeInfo> => {
    const known = modules.get(api);
    if (known) return known;
    const uid = (name: string) => `api::${api}.${name}`;
    const made = strictObject<StrapiApiModule<ContentTypeInfo>>(
      {
        get routes() {
          return source.routers()[api] ?? {};
        },
        get contentTypes() {
          const all = Object.entries(source.contentTypes());
          return Object.fromEntries(all.flatMap(([key, ct]) => namesIn(api, [key]).map((name) => [name, ct])));
        },
        contentType: (name) => source.contentTypes()[uid(name)],
        get controllers() {
          return lazyByName(namesIn(api, source.controllerUids()), (name) => source.controller(uid(name)) ?? {});
        },
        controller: (name) => source.controller(uid(name)),
        get services() {
          return lazyByName(namesIn(api, source.serviceUids()), (name) => source.service(uid(name)));
        },
        service: (name) => source.service(uid(name)),
        config: (path, defaultValue) => source.config(`api.${api}.${path}`, defaultValue),
      },
      `strapi.api.${api}`,
      MODULE_API,
    );
    modules.set(api, made);
    return made;
  };
  return (): Record<string, StrapiApiModule<ContentTypeInfo>> =>
    lazyByName(source.names().sort(), (api) => moduleOf(api));
}
