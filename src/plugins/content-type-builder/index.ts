/**
 * Strapi v4's content-type-builder plugin, its content API only (the builder itself is the admin
 * panel's, which this service does not have): `GET /api/content-type-builder/content-types`
 * (`?kind=collectionType|singleType`), `/content-types/:uid`, `/components`, `/components/:uid`,
 * each behind its permission (`plugin::content-type-builder.<controller>.<action>`), answered
 * as Strapi answers them (its own `{ error }` bodies for an unknown uid or kind).
 */
import { ForbiddenError } from '../../errors/index.js';
import { requestAuth } from '../../operations/request-context.js';
import type { Registry } from '../../content-types/index.js';
import type { Plugin, PluginRoute } from '../types.js';
import { formatComponent, formatContentType } from './format.js';

export const CONTENT_TYPE_BUILDER_ACTIONS = {
  getContentTypes: 'plugin::content-type-builder.content-types.getContentTypes',
  getContentType: 'plugin::content-type-builder.content-types.getContentType',
  getComponents: 'plugin::content-type-builder.components.getComponents',
  getComponent: 'plugin::content-type-builder.components.getComponent',
} as const;

const KINDS = ['singleType', 'collectionType'];
const KIND_MESSAGE = `this must be one of the following values: ${KINDS.join(', ')}`;

/** Strapi's order: the admin's and the plugins' content-types as Strapi loads them, any other plugin's, then the apis' by api name. */
const PLUGIN_TYPE_ORDER = [
  'admin::user',
  'admin::api-token',
  'admin::api-token-permission',
  'plugin::upload.file',
  'plugin::upload.folder',
  'plugin::users-permissions.permission',
  'plugin::users-permissions.role',
  'plugin::users-permissions.user',
  'plugin::i18n.locale',
];

function orderedContentTypes(registry: Registry) {
  const rank = (uid: string) => {
    const known = PLUGIN_TYPE_ORDER.indexOf(uid);
    if (known >= 0) return known;
    return uid.startsWith('api::') ? PLUGIN_TYPE_ORDER.length + 1 : PLUGIN_TYPE_ORDER.length;
  };
  const apiName = (uid: string) => uid.slice(uid.indexOf('::') + 2).split('.')[0] ?? uid;
  return registry
    .listContentTypes()
    .map((contentType, index) => ({ contentType, index }))
    .sort(
      (a, b) =>
        rank(a.contentType.uid) - rank(b.contentType.uid) ||
        (a.contentType.uid.startsWith('api::')
          ? apiName(a.contentType.uid).localeCompare(apiName(b.contentType.uid))
          : 0) ||
        a.index - b.index,
    )
    .map((entry) => entry.contentType);
}

export const contentTypeBuilderPlugin: Plugin = {
  name: 'content-type-builder',
  register(ctx) {
    const { registry } = ctx;
    const route = (
      path: string,
      action: keyof typeof CONTENT_TYPE_BUILDER_ACTIONS,
      answer: PluginRoute['run'],
    ): PluginRoute => ({
      method: 'GET',
      path,
      handler: `${action.includes('Component') ? 'components' : 'content-types'}.${action}`,
      run: (req, res) => {
        if (!requestAuth(req).ability.can(CONTENT_TYPE_BUILDER_ACTIONS[action])) throw new ForbiddenError();
        return answer(req, res);
      },
    });
    ctx.serveRoutes([
      route('/content-types', 'getContentTypes', (req, res) => {
        const { kind } = req.query;
        if (kind !== undefined && !(typeof kind === 'string' && KINDS.includes(kind)))
          return res.status(400).json({
            error: {
              name: 'ValidationError',
              details: { errors: [{ path: [], message: KIND_MESSAGE, name: 'ValidationError' }] },
              message: KIND_MESSAGE,
            },
          });
        const listed = orderedContentTypes(registry).filter((contentType) => !kind || contentType.kind === kind);
        return res.json({ data: listed.map(formatContentType) });
      }),
      route('/content-types/:uid', 'getContentType', (req, res) => {
        const contentType = registry.contentType(String(req.params.uid));
        if (!contentType) return res.status(404).json({ error: 'contentType.notFound' });
        return res.json({ data: formatContentType(contentType) });
      }),
      route('/components', 'getComponents', (_req, res) =>
        res.json({ data: registry.listComponents().map(formatComponent) }),
      ),
      route('/components/:uid', 'getComponent', (req, res) => {
        const component = registry.component(String(req.params.uid));
        if (!component) return res.status(404).json({ error: 'component.notFound' });
        return res.json({ data: formatComponent(component) });
      }),
    ]);
  },
};
