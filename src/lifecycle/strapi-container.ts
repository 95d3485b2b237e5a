/**
 * `strapi.container.get(name)`, Strapi v4's registry container, for the registries the service
 * keeps: `auth` (what `strapi.auth` is; projects register their own content-API strategies through
 * `strapi.container.get('auth').register('content-api', ...)`), `config`, `sanitizers`,
 * `validators` and `custom-fields` (its `add`, which `strapi.customFields.register` calls).
 * The container's other registries are Strapi's internals: asking for one says what is offered.
 */
import { UnsupportedStrapiApi } from './unsupported.js';

export interface StrapiContainer {
  get(name: string): unknown;
}

export interface ContainerRegistries {
  auth: unknown;
  config: unknown;
  sanitizers: unknown;
  validators: unknown;
  customFields: { register(customField: unknown): void };
}

const OFFERED = "get('auth'), get('config'), get('sanitizers'), get('validators'), get('custom-fields')";

export function createStrapiContainer(registries: ContainerRegistries): StrapiContainer {
  const customFields = { add: (customField: unknown) => registries.customFields.register(customField) };
  const byName: Readonly<Record<string, unknown>> = {
    auth: registries.auth,
    config: registries.config,
    sanitizers: registries.sanitizers,
    validators: registries.validators,
    'custom-fields': customFields,
  };
  return {
    get(name) {
      if (Object.hasOwn(byName, name)) return byName[name];
      throw new UnsupportedStrapiApi(`strapi.container.get('${name}')`, `it offers ${OFFERED}`);
    },
  };
}
