// The requests the trial sends for one api content-type: create (relations linked to an existing
// entry), read back with populate=*, list, update, and the GraphQL list (or single-type) query.
import type { ContentType, Registry } from '../../src/content-types/index.js';
import { findOneQueryName, findQueryName, typeName } from '../../src/plugins/graphql/naming.js';
import { fill, type Json, type Variant } from './samples.js';
import type { Trial } from './trial.js';

/**
 * GraphQL selection of a content-type: the readable scalars and relation ids its GraphQL type has
 * (a relation only when the credential may `find` its target: Strapi's GraphQL answers
 * "Forbidden access" otherwise).
 */
function selection(trial: Trial, ct: ContentType, exposed: Set<string>): string {
  const fields = Object.entries(ct.attributes).flatMap(([name, attribute]) => {
    if (!exposed.has(name)) return [];
    if (attribute.private || attribute.type === 'password' || name === 'localizations') return [];
    if (attribute.type === 'component' || attribute.type === 'dynamiczone') return [];
    const relation = ct.relations[name];
    if (attribute.type === 'media') return relation ? [`${name} { data { id } }`] : [];
    if (attribute.type === 'relation')
      return relation && trial.grants(`${relation.target}.find`) ? [`${name} { data { id } }`] : [];
    return [name];
  });
  return `data { id attributes { ${fields.join(' ')} } }`;
}

export interface ContentTypeRequestOptions {
  /** the project has the GraphQL plugin (without it there is no /graphql, as in Strapi) */
  graphql: boolean;
  variant: Variant;
}

export async function tryContentType(
  trial: Trial,
  registry: Registry,
  ct: ContentType,
  { graphql, variant }: ContentTypeRequestOptions,
): Promise<void> {
  const data = fill(registry, ct, variant);
  const action = (name: string) => `${ct.uid}.${name}`;
  const gql = async (query: string, needs?: string): Promise<Json> =>
    graphql ? trial.call('POST', '/graphql', { query }, needs) : {};
  const introspection = await gql(`{ __type(name: "${typeName(ct)}") { fields { name } } }`);
  const type = (introspection.data as { __type?: { fields?: Array<{ name: string }> } } | undefined)?.__type;
  const exposed = new Set((type?.fields ?? []).map((field) => field.name));
  if (ct.kind === 'singleType') {
    await trial.call('PUT', `${trial.api}/${ct.singularName}`, { data }, action('update'));
    await trial.call('GET', `${trial.api}/${ct.singularName}?populate=*`, undefined, action('find'));
    await gql(`{ ${findOneQueryName(ct)} { ${selection(trial, ct, exposed)} } }`, action('find'));
    return;
  }
  for (const [name, relation] of Object.entries(ct.relations)) {
    const target = registry.contentType(relation.target);
    if (!relation.stored || relation.media || name === 'localizations' || target?.namespace !== 'api') continue;
    if (target.kind !== 'collectionType') continue;
    const list = await trial.call(
      'GET',
      `${trial.api}/${target.pluralName}?pagination[pageSize]=1&publicationState=preview`,
      undefined,
      `${target.uid}.find`,
    );
    const first = Array.isArray(list.data) ? (list.data[0] as Json | undefined) : undefined;
    if (typeof first?.id === 'number') data[name] = relation.multiple ? [first.id] : first.id;
  }
  const created = await trial.call('POST', `${trial.api}/${ct.pluralName}`, { data }, action('create'));
  const id = (created.data as Json | null | undefined)?.id;
  await trial.call(
    'GET',
    `${trial.api}/${ct.pluralName}?populate=*&publicationState=preview`,
    undefined,
    action('find'),
  );
  if (typeof id === 'number') {
    await trial.call(
      'GET',
      `${trial.api}/${ct.pluralName}/${id}?populate=*&publicationState=preview`,
      undefined,
      action('findOne'),
    );
    await trial.call('PUT', `${trial.api}/${ct.pluralName}/${id}`, { data }, action('update'));
  }
  const args = ct.draftAndPublish ? '(publicationState: PREVIEW)' : '';
  await gql(`{ ${findQueryName(ct)}${args} { ${selection(trial, ct, exposed)} } }`, action('find'));
}
