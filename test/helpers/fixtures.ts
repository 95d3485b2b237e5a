import { fileURLToPath } from 'node:url';

/** The conformance fixture app (schemas + config) used by the API suites. */
export const PUBLICATION_APP = fileURLToPath(new URL('../fixtures/publication', import.meta.url));
