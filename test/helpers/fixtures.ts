import { fileURLToPath } from 'node:url';

/** The conformance fixture app (schemas + config) used by the API suites. */
export const PUBLICATION_APP = fileURLToPath(new URL('../fixtures/publication', import.meta.url));

/** A Strapi v4 project layout (src/api, src/components, src/extensions, config) modelled on public projects. */
export const STRAPI_PROJECT = fileURLToPath(new URL('../fixtures/strapi-project', import.meta.url));
