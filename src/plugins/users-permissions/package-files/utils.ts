/**
 * `@strapi/plugin-users-permissions/server/utils` for a project that requires it without having
 * the package installed (its users-permissions extension, mostly): the module's exports as Strapi
 * 4.26 has them, working through the global `strapi` as Strapi's do. `getService(name)` is the
 * plugin's service; `sanitize.sanitizers` the plugin's output sanitizers, which take a role's
 * users out (`sanitize.visitors.removeUserRelationFromRoleEntities` is the visitor they use).
 */
import { createRequire } from 'node:module';

type Entity = Record<string, unknown>;
type Schema = { uid?: string };
interface VisitorArgs {
  schema: Schema;
  key: string;
  attribute?: { type?: string; target?: string };
}
type Visitor = (args: VisitorArgs, helpers: { remove(key: string): void }) => void;

/** the parts of `@strapi/utils` (the service's copy, 4.26.2) the sanitizers walk entities with */
interface StrapiUtilsTraversal {
  traverseEntity(visitor: Visitor, options: { schema: Schema }, entity: unknown): Promise<unknown>;
}
interface PluginHolder {
  plugin(name: string): { service(name: string): unknown };
}

const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';
const { traverseEntity } = createRequire(import.meta.url)('@strapi/utils') as StrapiUtilsTraversal;

export function getService(name: string): unknown {
  const strapi = (globalThis as { strapi?: PluginHolder }).strapi;
  if (!strapi) throw new Error(`getService('${name}') needs a running Strapi application`);
  return strapi.plugin('users-permissions').service(name);
}

const removeUserRelationFromRoleEntities: Visitor = ({ schema, key, attribute }, { remove }) => {
  if (attribute?.type === 'relation' && attribute.target === USER && schema.uid === ROLE) remove(key);
};

/** Strapi's curried form: `(schema, entity)` or `(schema)(entity)` */
function curried(walk: (schema: Schema, entity: Entity) => Promise<unknown>) {
  function sanitizer(schema: Schema): (entity: Entity) => Promise<unknown>;
  function sanitizer(schema: Schema, entity: Entity): Promise<unknown>;
  function sanitizer(schema: Schema, entity?: Entity) {
    return entity === undefined ? (later: Entity) => walk(schema, later) : walk(schema, entity);
  }
  return sanitizer;
}

const sanitizeUserRelationFromRoleEntities = curried((schema, entity) =>
  traverseEntity(removeUserRelationFromRoleEntities, { schema }, entity),
);

export const sanitize = {
  sanitizers: {
    sanitizeUserRelationFromRoleEntities,
    defaultSanitizeOutput: curried((schema, entity) => sanitizeUserRelationFromRoleEntities(schema, entity)),
  },
  visitors: { removeUserRelationFromRoleEntities },
};
