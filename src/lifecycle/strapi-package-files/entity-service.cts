// `@strapi/strapi/lib/services/entity-service` for a project that requires it (editors add the
// require on their own, mostly unused): as in Strapi 4.0 to 4.14, the module is the entity
// service's factory; here every call answers the running application's one entity service.
interface EntityServiceHolder {
  entityService?: unknown;
}

export = function createEntityService(): unknown {
  const strapi = (globalThis as { strapi?: EntityServiceHolder }).strapi;
  if (!strapi?.entityService) throw new Error('the entity service needs a running Strapi application');
  return strapi.entityService;
};
