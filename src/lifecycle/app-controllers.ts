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
import { ConfigError, importAppModule } from '../config/index.js';
import type { KoaMiddleware } from '../middlewares/koa-bridge.js';
import type { ServiceContext } from '../service-context.js';
import type { AppRegistries } from './sanitizer-registries.js';
import {
  CONTROLLER_HELPERS,
  callMethod,
  coreActionNames,
  createCoreController,
  type MethodBag,
} from './core-controller.js';
import { createCoreService, type CoreService } from './core-service.js';
import { createEntityService } from './entity-service.js';
import { coreFactoryRecord, withStrapiFactories, type CoreConfig, type CoreFactoryRecord } from './strapi-factories.js';
import type { StrapiApp } from './strapi-app.js';
import { UnsupportedStrapiApi } from './unsupported.js';

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
function overBase(base: MethodBag, cfg: CoreConfig, strapi: StrapiApp | undefined): MethodBag {
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
  /** its `sanitizers` and `validators`, which the core controllers run */
  registries?: AppRegistries;
}

/** The app's controllers and services, running. */
export interface AppCode {
  controller(uid: string): MethodBag | undefined;
  controllerUids(): string[];
  /** the app's service of `uid`, or the core service of a content-type; undefined: neither */
  service(uid: string): unknown;
  serviceUids(): string[];
  /** whether `uid` has a controller or service of the app's that is more than a generated one (its REST routes then ask `restAction`) */
  customises(uid: string): boolean;
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
  /** instantiates every controller (as Strapi does when its routes are registered) and checks the services' uids: a failure stops start-up */
  instantiate(): void;
  /**
   * A `createCoreController(uid, cfg)` / `createCoreService(uid, cfg)` a plugin's object holds
   * (`plugin.controllers.x = factories.createCoreController('plugin::users-permissions.user', ...)`),
   * made as Strapi's factories make it: the cfg's methods over the core ones of any content-type.
   */
  coreFactoryInstance(record: CoreFactoryRecord): MethodBag;
}

const HANDLER_NAME = /^api::([\w-]+)\.([\w-]+)\.([\w-]+)$/;
const RELATIVE_NAME = /^([\w-]+)\.([\w-]+)$/;

/** The controller and action a route handler's name gives: `api::<api>.<controller>.<action>`, or `<controller>.<action>` within `api`. */
function handlerTarget(name: string, api: string): { uid: string; action: string } | undefined {
  const full = HANDLER_NAME.exec(name);
  if (full) return { uid: `api::${full[1]}.${full[2]}`, action: full[3] ?? '' };
  const within = RELATIVE_NAME.exec(name);
  return within && api ? { uid: `api::${api}.${within[1]}`, action: within[2] ?? '' } : undefined;
}

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
      core = createCoreController(
        { service: host.service, appService: (u) => code.service(u), coreService, registries: host.registries },
        uid,
      );
      coreControllers.set(uid, core);
    }
    return core;
  };
  /** The core factory a module exported, if any; one naming no content-type stops start-up. */
  const checkedRecord = (module: AppModule, kind: Kind) => {
    const record = coreFactoryRecord(module.exported);
    if (record && !registry.contentType(record.uid))
      throw new ConfigError(
        relative(host.service.config.appDir, module.file),
        undefined,
        `create-core-${kind}('${record.uid}') names no content-type of this app`,
      );
    return record;
  };
  /** An app module made into its instance; a core factory for a uid that is no content-type, or a factory that throws, stops start-up. */
  const instance = (module: AppModule, kind: Kind, base: (uid: string) => MethodBag): unknown => {
    const shown = relative(host.service.config.appDir, module.file);
    const record = checkedRecord(module, kind);
    // a generated module needs no `strapi` object: the core one serves an app with no code of its own
    const strapi = isGenerated(module.exported) ? undefined : requireStrapi(`the ${kind} ${module.uid}`);
    try {
      if (record) return overBase(base(record.uid), record.cfg, strapi);
      return typeof module.exported === 'function'
        ? (module.exported as (args: { strapi: StrapiApp | undefined }) => unknown)({ strapi })
        : module.exported;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new ConfigError(shown, undefined, `making the ${kind} failed: ${message}`);
    }
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
    customises: (uid) =>
      [controllerModules.get(uid), serviceModules.get(uid)].some((m) => m !== undefined && !isGenerated(m.exported)),
    ownService: (uid) => serviceModules.has(uid),
    controllerHandler(name, api) {
      const target = handlerTarget(name, api);
      if (!target) return undefined;
      const controller = code.controller(target.uid);
      if (typeof controller?.[target.action] !== 'function') return undefined;
      // read on every call: app code may replace an action on the controller object (in bootstrap)
      return (ctx, next) => callMethod(controller, target.action, ctx, next);
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
    coreFactoryInstance(record) {
      const what = `create-core-${record.kind}('${record.uid}')`;
      if (!registry.contentType(record.uid))
        throw new UnsupportedStrapiApi(what, 'it names no content-type of this app');
      const base =
        record.kind === 'controller'
          ? coreController(record.uid).controller
          : (coreService(record.uid) as unknown as MethodBag);
      return overBase(base, record.cfg, requireStrapi(what));
    },
    instantiate() {
      for (const uid of controllerModules.keys()) code.controller(uid);
      // services are made when first asked for, as Strapi's: one for a uid that is no content-type
      // (an api folder left after its content-type went) fails only when used, and is told now
      for (const module of serviceModules.values()) {
        const record = coreFactoryRecord(module.exported);
        if (record && !registry.contentType(record.uid))
          host.service.logger.warn(
            `${relative(host.service.config.appDir, module.file)}: create-core-service('${record.uid}') names no content-type of this app: strapi.service('${module.uid}') fails when used`,
          );
      }
    },
  };
  return code;
}
