/**
 * `UploadFile.related`: the entries and components whose media attributes hold the file (the
 * upload plugin's `relatedOfFiles`), each resolved to its own type of `GenericMorph`. The files of
 * one request are read together (DataLoader: one batch per tick), so a list of files costs the
 * same queries as one.
 */
import DataLoader from 'dataloader';
import { relatedOfFiles, type RelatedItem } from '../upload/index.js';
import { operationContext, type GraphQLContext } from './context.js';
import { entityAttributes } from './entity-attributes.js';
import { isRecord } from './values.js';

/** The file's id of the attributes object `UploadFileEntity` answered, where `related` is read. */
const fileIds = new WeakMap<object, number>();

const loaders = new WeakMap<GraphQLContext, DataLoader<number, RelatedItem[]>>();

function loaderOf(context: GraphQLContext): DataLoader<number, RelatedItem[]> {
  let loader = loaders.get(context);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly number[]) => {
      const related = await relatedOfFiles(operationContext(context), [...ids]);
      return ids.map((id) => related.get(id) ?? []);
    });
    loaders.set(context, loader);
  }
  return loader;
}

/** The resolver of `UploadFileEntity.attributes`: the attributes, marked with the file's id. */
export function fileAttributes(entity: unknown): unknown {
  const read = entityAttributes(entity);
  if (!isRecord(entity) || !read) return null;
  const attributes = { ...read };
  fileIds.set(attributes, Number(entity.id));
  return attributes;
}

/** The resolver of `UploadFile.related`: items of a type the schema has (`names`, by uid). */
export function fileRelated(names: ReadonlyMap<string, string>) {
  return async (attributes: unknown, _args: unknown, context: GraphQLContext): Promise<RelatedItem[]> => {
    const id = isRecord(attributes) ? fileIds.get(attributes) : undefined;
    if (id === undefined || !Number.isInteger(id)) return [];
    return (await loaderOf(context).load(id)).filter((item) => names.has(item.__type));
  };
}

/** `GenericMorph`'s type of a related item: its content-type's or component's type. */
export function morphType(names: ReadonlyMap<string, string>): (value: unknown) => string | undefined {
  return (value) => (isRecord(value) && typeof value.__type === 'string' ? names.get(value.__type) : undefined);
}
