/**
 * `strapi.service('plugin::content-manager.uid')` of Strapi v4, which lifecycles call to fill a
 * `uid` attribute as the admin panel would (`generateUIDField`): the slug of its `targetField`
 * (@sindresorhus/slugify 1.1 with the attribute's `options`, as Strapi's content manager), made
 * unique with `-1`, `-2`... against the entries that hold it already.
 */
import get from 'lodash/get.js';
import isEmpty from 'lodash/isEmpty.js';
import slugify from 'slugify-v1';
import type { Registry } from '../content-types/index.js';
import type { QueryEngine } from './query-engine.js';
import { UnsupportedStrapiApi } from './unsupported.js';

interface UidField {
  contentTypeUID: string;
  field: string;
}

export interface ContentManagerUidService {
  generateUIDField(input: UidField & { data?: Record<string, unknown> }): Promise<string>;
  findUniqueUID(input: UidField & { value: string }): Promise<string>;
  checkUIDAvailability(input: UidField & { value: unknown }): Promise<boolean>;
}

export function createContentManagerUidService(
  registry: Registry,
  query: (uid: string) => QueryEngine,
): ContentManagerUidService {
  const attributeOf = (contentTypeUID: string, field: string) => {
    const contentType = registry.contentType(contentTypeUID);
    const attribute = contentType?.attributes[field];
    if (!contentType || !attribute)
      throw new UnsupportedStrapiApi(
        `strapi.service('plugin::content-manager.uid') on ${contentTypeUID}.${field}`,
        "it takes a content-type of this app and one of its attributes (its 'uid' attribute)",
      );
    return { contentType, attribute };
  };
  const service: ContentManagerUidService = {
    async generateUIDField({ contentTypeUID, field, data = {} }) {
      const { contentType, attribute } = attributeOf(contentTypeUID, field);
      const uid = attribute.type === 'uid' ? attribute : undefined;
      const options = uid?.options as slugify.Options | undefined;
      const target: unknown = uid?.targetField ? get(data, uid.targetField) : undefined;
      // lodash's isEmpty, as Strapi tests it: a number counts as empty
      const source = isEmpty(target) ? String(uid?.default ?? '') || contentType.singularName : String(target);
      return service.findUniqueUID({ contentTypeUID, field, value: slugify(source, options) });
    },
    async findUniqueUID({ contentTypeUID, field, value }) {
      attributeOf(contentTypeUID, field);
      const taken = (await query(contentTypeUID).findMany({ where: { [field]: { $contains: value } } })).map(
        (entry) => entry[field],
      );
      if (taken.length === 0) return value;
      let i = 1;
      while (taken.includes(`${value}-${i}`)) i += 1;
      return `${value}-${i}`;
    },
    async checkUIDAvailability({ contentTypeUID, field, value }) {
      attributeOf(contentTypeUID, field);
      return (await query(contentTypeUID).count({ where: { [field]: value } })) === 0;
    },
  };
  return service;
}
