/**
 * The app's controllers and services (`src/api/<api>/controllers/*`, `src/api/<api>/services/*`),
 * as Strapi v4's registries hold them: `api::<api>.<file name>`, each instantiated once with
 * `{ strapi }` when first asked for. A `createCoreController(uid, cfg)` / `createCoreService(uid,
 * cfg)` module is the app's methods over the core ones (its prototype, so `super.find()` works); a
 * plain module (an object, or `({ strapi }) => object`) is taken as it is. A content-type with no
 * file of its own has its core controller and service.
 *
 * `controllerHandler(name, api)` gives a route handler named by a string (`api::<api>.<controller>.<action>`,
 * or `<controller>.<action>` within `api`) as a Koa middleware; `restAction(uid, action)` the one
 * a core REST route runs instead of its direct operation when the app's code takes part in it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { importAppModule } from '../config/index.js';
import type { KoaMiddleware } from '../middlewares/koa-bridge.js';
import type { KoaContext } from '../middlewares/koa-context.js';
import type { ServiceContext } from '../service-context.js';
import { CONTROLLER_HELPERS, coreActionNames, createCoreController, type MethodBag } from './core-controller.js';
import { createCoreService, type CoreService } from './core-service.js';
import { createEntityService } from './entity-service.js';
import { coreFactoryRecord, withStrapiFactories, type CoreConfig } from './strapi-factories.js';
import type { StrapiApp } from './strapi-app.js';

const CODE_FILE = /\.(js|cjs|mjs|ts)$/;
type Kind = 'controller' | 'service';

/** One module of the app's controllers or services, as loaded. */
interface AppModule {
  file: string;
  /** `api::<api>.<file name>` */
  uid: string;
  exported: unknown;
}

/** What the app's controller and service files hold, loaded before the service starts. */
export interface LoadedAppCode {
  controllers: AppModule[];
  services: AppModule[];
  /** the files loaded (their code runs: no start-up notice lists them) */
  files: string[];
  /** whether any module is more than a generated `createCoreX(uid)` (the app's code then needs the `strapi` object) */
  customised: boolean;
}

function codeFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .sort()
    .filter((name) => CODE_FILE.test(name) && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

function isGenerated(exported: unknown): boolean {
  const record = coreFactoryRecord(exported);
  return record !== undefined && record.cfg === undefined;
}

/**
 * Loads the controllers and services of every api; a file that cannot be loaded or exports
 * nothing usable is named to `warn` and left out (its content-type keeps its core one).
 */
export async function loadAppCode(appDir: string, warn: (message: string) => void): Promise<LoadedAppCode> {
  const apiDir = join(appDir, 'src', 'api');
  const apis = existsSync(apiDir) ? readdirSync(apiDir).sort() : [];
  const loaded: LoadedAppCode = { controllers: [], services: [], files: [], customised: false };
  await withStrapiFactories(async () => {
    for (const api of apis)
      for (const [kind, folder] of [
        ['controller', 'controllers'],
        ['service', 'services'],
      ] as const)
        for (const file of codeFiles(join(apiDir, api, folder))) {
          const shown = relative(appDir, file);
          let exported: unknown;
          try {
            exported = await importAppModule(file, shown);
          } catch (err) {
            warn(`${err instanceof Error ? err.message : String(err)}; this ${kind} is not run`);
            continue;
          }
          const record = coreFactoryRecord(exported);
          const usable = record ? record.kind === kind : typeof exported === 'function' || isObject(exported);
          if (!usable) {
            warn(
              `${shown}: a ${kind} must export an object, ({ strapi }) => object, or create-core-${kind}(uid, cfg); it is not run`,
            );
            continue;
          }
          const name = basename(file).replace(CODE_FILE, '');
          (kind === 'controller' ? loaded.controllers : loaded.services).push({
            file,
            uid: `api::${api}.${name}`,
            exported,
          });
          loaded.files.push(file);
          if (!isGenerated(exported)) loaded.customised = true;
        }
  });
  return loaded;
}

function isObject(value: unknown): value is MethodBag {
  return typeof value === 'object' && value !== null;
}

/** The app's methods over `base`, as Strapi's factories merge them. */
function overBase(base: MethodBag, cfg: CoreConfig, strapi: StrapiApp): MethodBag {
  const own = typeof cfg === 'function' ? cfg({ strapi }) : (cfg ?? {});
  if (!isObject(own)) throw new TypeError('the cfg of a core controller or service must give an object');
  for (const name of Object.keys(base)) if (own[name] === undefined) own[name] = base[name];
  Object.setPrototypeOf(own, base);
  return own;
}

export interface AppCodeHost {
  service: ServiceContext;
  /** the `strapi` object (undefined until it exists) */
  strapi(): StrapiApp | undefined;
}

/** The app's controllers and services, running. */
export interface AppCode {
  controller(uid: string): MethodBag | undefined;
  controllerUids(): string[];
  /** the app's service of `uid`, or the core service of a content-type; undefined: neither */
  service(uid: string): unknown;
  serviceUids(): string[];
  /** whether `uid` has a controller or service file of the app's (its REST routes then ask `restAction`) */
  hasOwnCode(uid: string): boolean;
  /** whether `uid` has a service file of the app's */
  ownService(uid: string): boolean;
  /**
   * A route handler named by a string: `api::<api>.<controller>.<action>`, or `<controller>.<action>`
   * within `api`, as a Koa middleware returning the action's value; undefined when no such action
   * exists (plugins' controllers are not known here).
   */
  controllerHandler(name: string, api: string): KoaMiddleware | undefined;
  /** The controller action a core REST route runs when the app's code takes part in it; undefined: the direct operation. */
  restAction(uid: string, action: string): KoaMiddleware | undefined;
  /** the users-permissions actions of the app's own controller actions (`api::<api>.<controller>.<action>`) */
  customActions(): string[];
  /** instantiates every controller (as Strapi does when its routes are registered): a failing factory stops start-up */
  instantiate(): void;
}

const HANDLER_NAME = /^api::([\w-]+)\.([\w-]+)\.([\w-]+)$/;
const RELATIVE_NAME = /^([\w-]+)\.([\w-]+)$/;

export function createAppCode(loaded: LoadedAppCode, host: AppCodeHost): AppCode {
  const { registry } = host.service;
  const entities = createEntityService(host.service);
  const controllerModules = new Map(loaded.controllers.map((m) => [m.uid, m]));
  const serviceModules = new Map(loaded.services.map((m) => [m.uid, m]));
  const coreServices = new Map<string, CoreService>();
  const coreControllers = new Map<string, ReturnType<typeof createCoreController>>();
  const controllers = new Map<string, MethodBag>();
  const services = new Map<string, unknown>();
  const apiContentTypes = () => registry.listContentTypes().filter((ct) => ct.namespace === 'api');

  const requireStrapi = (what: string): StrapiApp => {
    const strapi = host.strapi();
    if (!strapi) throw new Error(`${what} was asked for before the strapi object existed`);
    return strapi;
  };
  const coreService = (uid: string): CoreService => {
    let core = coreServices.get(uid);
    if (!core) coreServices.set(uid, (core = createCoreService(host.service, entities, uid)));
    return core;
  };
  const coreController = (uid: string) => {
    let core = coreControllers.get(uid);
    if (!core) {
      core = createCoreController({ service: host.service, appService: (u) => code.service(u), coreService }, uid);
      coreControllers.set(uid, core);
    }
    return core;
  };
  /** An app module made into its instance; a core factory for a uid that is no content-type is refused. */
  const instance = (module: AppModule, kind: Kind, base: (uid: string) => MethodBag): unknown => {
    const strapi = requireStrapi(`the ${kind} ${module.uid}`);
    const record = coreFactoryRecord(module.exported);
    if (record) {
      if (!registry.contentType(record.uid))
        throw new Error(
          `${relative(host.service.config.appDir, module.file)}: create-core-${kind}('${record.uid}') names no content-type of this app`,
        );
      return overBase(base(record.uid), record.cfg, strapi);
    }
    return typeof module.exported === 'function'
      ? (module.exported as (args: { strapi: StrapiApp }) => unknown)({ strapi })
      : module.exported;
  };

  const code: AppCode = {
    controller(uid) {
      const known = controllers.get(uid);
      if (known) return known;
      const module = controllerModules.get(uid);
      let made: unknown;
      if (module) made = instance(module, 'controller', (u) => coreController(u).controller);
      else if (registry.contentType(uid)?.namespace === 'api') made = coreController(uid).controller;
      if (!isObject(made)) return undefined;
      controllers.set(uid, made);
      return made;
    },
    controllerUids: () => [...new Set([...apiContentTypes().map((ct) => ct.uid), ...controllerModules.keys()])].sort(),
    service(uid) {
      if (services.has(uid)) return services.get(uid);
      const module = serviceModules.get(uid);
      let made: unknown;
      if (module) made = instance(module, 'service', (u) => coreService(u) as unknown as MethodBag);
      else if (registry.contentType(uid)?.namespace === 'api') made = coreService(uid);
      else return undefined;
      services.set(uid, made);
      return made;
    },
    serviceUids: () => [...new Set([...apiContentTypes().map((ct) => ct.uid), ...serviceModules.keys()])].sort(),
    hasOwnCode: (uid) => controllerModules.has(uid) || serviceModules.has(uid),
    ownService: (uid) => serviceModules.has(uid),
    controllerHandler(name, api) {
      const [, apiName, controllerName, action] = HANDLER_NAME.exec(name) ?? [
        undefined,
        api,
        ...(RELATIVE_NAME.exec(name)?.slice(1) ?? []),
      ];
      if (!apiName || !controllerName || !action) return undefined;
      const uid = `api::${apiName}.${controllerName}`;
      const controller = code.controller(uid);
      if (typeof controller?.[action] !== 'function') return undefined;
      // looked up on every call: `strapi.controller(uid)` may be extended later
      return (ctx, next) => {
        const current = code.controller(uid);
        return Reflect.apply(current?.[action] as (ctx: KoaContext, next: unknown) => unknown, current, [ctx, next]);
      };
    },
    restAction(uid, action) {
      const controller = code.controller(uid);
      if (!controller) return undefined;
      const core = coreController(uid);
      if (controller[action] === core.controller[action] && core.direct(controller, action)) return undefined;
      return code.controllerHandler(`${uid}.${action}`, '');
    },
    customActions() {
      const actions: string[] = [];
      for (const uid of code.controllerUids()) {
        const controller = code.controller(uid);
        if (!controller) continue;
        const kind = registry.contentType(uid)?.kind;
        const core = new Set<string>([...(kind ? coreActionNames(kind) : []), ...CONTROLLER_HELPERS]);
        for (const [name, value] of Object.entries(controller))
          if (typeof value === 'function' && !core.has(name)) actions.push(`${uid}.${name}`);
      }
      return actions;
    },
    instantiate() {
      for (const uid of controllerModules.keys()) code.controller(uid);
    },
  };
  return code;
}
