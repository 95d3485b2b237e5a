/**
 * Shadow CRUD: the queries and mutations of every exposed content-type. Each resolver checks the
 * same action REST checks (`api::article.article.find` …), converts its arguments and selection
 * set into the RawQuery REST uses, and calls the same operation (src/operations), so the whole
 * nested selection is read by ONE aggregation (+ a count only when total/pageCount is selected).
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { ContentType, Registry } from '../../content-types/index.js';
import { NotFoundError } from '../../errors/index.js';
import * as operations from '../../operations/index.js';
import type { CollectionResponse, EntryResponse, RawQuery } from '../../operations/index.js';
import { createLocalization } from '../../operations/localizations.js';
import type { GraphQLContext } from './context.js';
import { operationContext, pageLimits } from './context.js';
import { listArgs } from './content-type-types.js';
import type { ExtensionService, Resolver } from './extension.js';
import { toRestFilters } from './filters.js';
import {
  createLocalizationMutationName,
  createMutationName,
  deleteMutationName,
  entityResponseCollectionName,
  entityResponseName,
  filtersInputName,
  findOneQueryName,
  findQueryName,
  inputName,
  LOCALE_CODE_SCALAR,
  PUBLICATION_STATE,
  updateMutationName,
} from './naming.js';
import { deleteReadQuery, emptiedAfterDelete } from './deleted-answer.js';
import { graphqlPaginationMeta, graphqlWindow, type GraphQLWindow } from './pagination.js';
import { selectedPaginationFields, selectionQuery } from './selection.js';
import { isRecord, plain } from './values.js';

type Args = Record<string, unknown>;
type ArgMap = Record<string, { type: string; defaultValue?: unknown } | string>;

/** A Query or Mutation field with the action checked before it runs (null: public). */
export interface RootField {
  type: string;
  args?: ArgMap;
  description?: string;
  resolve: Resolver;
  /** the action checked before the resolver runs, unless resolversConfig says otherwise; null: public */
  action: string | null;
}

function readQuery(
  registry: Registry,
  ct: ContentType,
  args: Args,
  info: GraphQLResolveInfo,
  ctx: GraphQLContext,
): RawQuery {
  const query: RawQuery = { ...selectionQuery(info, registry, ct, ctx) };
  if (args.filters !== undefined && args.filters !== null)
    query.filters = toRestFilters(registry, ct, plain(args.filters));
  if (Array.isArray(args.sort) && args.sort.length > 0) query.sort = args.sort;
  if (typeof args.publicationState === 'string') query.publicationState = args.publicationState.toLowerCase();
  if (typeof args.locale === 'string') query.locale = args.locale;
  return query;
}

/**
 * A missing entry (or a draft without PREVIEW) is `data: null`, not an error: for reads, and for
 * `update`/`delete` of an id that does not exist, as Strapi's entity service answers them.
 */
async function orNull(read: Promise<EntryResponse>): Promise<EntryResponse | { data: null }> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return { data: null };
    throw err;
  }
}

/**
 * A single type's update whose write failed answers `{ data: null }` with the error on `data`, as
 * Strapi's resolver (it returns the response before the write settles, so the error surfaces
 * where `data` is resolved).
 */
async function failingData(write: Promise<EntryResponse>): Promise<EntryResponse | { data: () => never }> {
  try {
    return await write;
  } catch (err) {
    return {
      data: () => {
        throw err;
      },
    };
  }
}

/** A collection answer with Strapi's GraphQL meta, computed on the window that was read. */
function collection(response: CollectionResponse, window: GraphQLWindow): unknown {
  const rest = response.meta.pagination as Record<string, number> | undefined;
  return { data: response.data, meta: { pagination: graphqlPaginationMeta(window, rest?.total) } };
}

/** Whether the selected meta needs the total: `total`/`pageCount`, or any field of a `limit: -1` page (its size is the total). */
function countsTotal(selected: Set<string>, window: GraphQLWindow): boolean {
  return selected.has('total') || selected.has('pageCount') || (window.limit === -1 && selected.size > 0);
}

const idArg = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

export function shadowQueries(
  registry: Registry,
  extension: ExtensionService,
  ct: ContentType,
  type: string,
): Record<string, RootField> {
  const fields: Record<string, RootField> = {};
  const uid = ct.uid;
  const locale: ArgMap = ct.localized ? { locale: { type: LOCALE_CODE_SCALAR } } : {};
  const state: ArgMap = ct.draftAndPublish
    ? { publicationState: { type: PUBLICATION_STATE, defaultValue: 'LIVE' } }
    : {};
  if (ct.kind === 'singleType') {
    if (extension.isActionEnabled(uid, 'find')) {
      fields[findOneQueryName(ct)] = {
        type: entityResponseName(type),
        args: { ...state, ...locale },
        action: `${uid}.find`,
        resolve: (_p, args, ctx, info) =>
          orNull(operations.findSingle(operationContext(ctx), uid, readQuery(registry, ct, args, info, ctx))),
      };
    }
    return fields;
  }
  if (extension.isActionEnabled(uid, 'findOne')) {
    fields[findOneQueryName(ct)] = {
      type: entityResponseName(type),
      args: { id: { type: 'ID' }, ...locale },
      action: `${uid}.findOne`,
      resolve: (_p, args, ctx, info) => {
        if (args.id === undefined || args.id === null) return { data: null };
        const { locale: _locale, ...rest } = readQuery(registry, ct, args, info, ctx);
        return orNull(
          operations.findOne(operationContext(ctx), uid, idArg(args.id), { ...rest, publicationState: 'live' }),
        );
      },
    };
  }
  if (extension.isActionEnabled(uid, 'find')) {
    fields[findQueryName(ct)] = {
      type: entityResponseCollectionName(type),
      args: { ...listArgs(filtersInputName(type), ct.draftAndPublish), ...locale },
      action: `${uid}.find`,
      resolve: async (_p, args, ctx, info) => {
        const query = readQuery(registry, ct, args, info, ctx);
        const window = graphqlWindow(plain(args.pagination), pageLimits(ctx));
        const withCount = countsTotal(selectedPaginationFields(info, registry), window);
        query.pagination = { start: window.start, limit: window.readLimit, withCount };
        return collection(await operations.find(operationContext(ctx), uid, query), window);
      },
    };
  }
  return fields;
}

/** Mutations answer the written entry read back with the selection (drafts included). */
export function shadowMutations(
  registry: Registry,
  extension: ExtensionService,
  ct: ContentType,
  type: string,
): Record<string, RootField> {
  const fields: Record<string, RootField> = {};
  const uid = ct.uid;
  const locale: ArgMap = ct.localized ? { locale: { type: LOCALE_CODE_SCALAR } } : {};
  const answerQuery = (args: Args, info: GraphQLResolveInfo, ctx: GraphQLContext): RawQuery => {
    const query = selectionQuery(info, registry, ct, ctx);
    return typeof args.locale === 'string' ? { ...query, locale: args.locale } : query;
  };
  // Strapi's create and update mutations sanitize `data` with the app's input sanitizers too
  const body = async (args: Args, ctx: GraphQLContext) => {
    const data = plain(args.data);
    const sanitize = ctx.service.sanitizeAppInput;
    return { data: sanitize ? await sanitize(uid, data, operationContext(ctx).access) : data };
  };
  const localizedBody = async (args: Args, ctx: GraphQLContext) => {
    const sanitized = await body(args, ctx);
    return typeof args.locale === 'string' && isRecord(sanitized.data)
      ? { data: { ...sanitized.data, locale: args.locale } }
      : sanitized;
  };
  if (ct.kind === 'singleType') {
    if (extension.isActionEnabled(uid, 'update')) {
      fields[updateMutationName(type)] = {
        type: entityResponseName(type),
        args: { data: `${inputName(type)}!`, ...locale },
        action: `${uid}.update`,
        resolve: (_p, args, ctx, info) =>
          failingData(
            body(args, ctx).then((written) =>
              operations.upsertSingle(operationContext(ctx), uid, written, answerQuery(args, info, ctx)),
            ),
          ),
      };
    }
    if (extension.isActionEnabled(uid, 'delete')) {
      fields[deleteMutationName(type)] = {
        type: entityResponseName(type),
        args: { ...locale },
        action: `${uid}.delete`,
        resolve: async (_p, args, ctx, info) => {
          const query = answerQuery(args, info, ctx);
          const answer = await operations
            .deleteSingle(operationContext(ctx), uid, deleteReadQuery(query))
            .catch((err: unknown) => {
              // Strapi's single-type delete resolver words its own
              throw err instanceof NotFoundError ? new NotFoundError('Entity not found') : err;
            });
          return emptiedAfterDelete(ct, query, answer);
        },
      };
    }
    return fields;
  }
  if (extension.isActionEnabled(uid, 'create')) {
    fields[createMutationName(type)] = {
      type: entityResponseName(type),
      args: { data: `${inputName(type)}!`, ...locale },
      action: `${uid}.create`,
      // the `locale` argument is the new entry's locale (REST's create reads only `data.locale`);
      // Strapi's GraphQL create goes through its entity service: unpublished unless `publishedAt`
      // is given, yet validated as published (REST's create publishes)
      resolve: async (_p, args, ctx, info) =>
        operations.create(operationContext(ctx), uid, await localizedBody(args, ctx), answerQuery(args, info, ctx), {
          unpublished: true,
        }),
    };
  }
  if (extension.isActionEnabled(uid, 'update')) {
    fields[updateMutationName(type)] = {
      type: entityResponseName(type),
      args: { id: 'ID!', data: `${inputName(type)}!`, ...locale },
      action: `${uid}.update`,
      resolve: async (_p, args, ctx, info) =>
        orNull(
          operations.update(
            operationContext(ctx),
            uid,
            idArg(args.id),
            await body(args, ctx),
            answerQuery(args, info, ctx),
          ),
        ),
    };
  }
  if (extension.isActionEnabled(uid, 'delete')) {
    fields[deleteMutationName(type)] = {
      type: entityResponseName(type),
      args: { id: 'ID!', ...locale },
      action: `${uid}.delete`,
      resolve: async (_p, args, ctx, info) => {
        const query = answerQuery(args, info, ctx);
        const answer = await orNull(
          operations.remove(operationContext(ctx), uid, idArg(args.id), deleteReadQuery(query)),
        );
        return emptiedAfterDelete(ct, query, answer);
      },
    };
  }
  if (ct.localized && extension.isActionEnabled(uid, 'createLocalization')) {
    fields[createLocalizationMutationName(type)] = {
      type: entityResponseName(type),
      args: { id: 'ID', data: inputName(type), ...locale },
      action: `${uid}.createLocalization`,
      resolve: async (_p, args, ctx, info) => {
        const opCtx = operationContext(ctx);
        const data = plain(args.data ?? {}) as Args;
        const created = await createLocalization(
          opCtx,
          uid,
          args.id === undefined || args.id === null ? null : idArg(args.id),
          { ...data, locale: args.locale },
          {},
        );
        return operations.findWritten(opCtx, uid, String(created.id), {
          ...selectionQuery(info, registry, ct, ctx),
          publicationState: 'preview',
        });
      },
    };
  }
  return fields;
}
