// The content-type-builder plugin's content API (GET /api/content-type-builder/...): each schema as
// its file declared it, in the builder's shapes, behind its permissions; checked against a real
// Strapi 4.26 on the same shapes (relations' targetAttribute and private, media, hidden attributes,
// options, a custom field with its base type, plugin types hidden from the builder).
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const POST = {
  kind: 'collectionType',
  collectionName: 'posts',
  info: { singularName: 'post', pluralName: 'posts', displayName: 'Post', description: 'A blog post' },
  options: { draftAndPublish: true },
  pluginOptions: {},
  attributes: {
    title: { type: 'string', required: true },
    color: { type: 'customField', customField: 'plugin::color-picker.color', options: { format: 'hex' } },
    cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
    writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'posts' },
    secret: { type: 'string', visible: false },
    seo: { type: 'component', repeatable: false, component: 'shared.seo' },
  },
};
const WRITER = {
  kind: 'collectionType',
  collectionName: 'writers',
  info: { singularName: 'writer', pluralName: 'writers', displayName: 'Writer' },
  attributes: {
    name: { type: 'string' },
    posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'writer', private: true },
  },
};
const SEO = {
  collectionName: 'components_shared_seos',
  info: { displayName: 'seo', icon: 'search' },
  attributes: { metaTitle: { type: 'string', required: true } },
};

describe("the content-type-builder's content API", () => {
  let service: TestService;
  let token = '';
  const get = (path: string) => request(service.app).get(`/api/content-type-builder${path}`).set(bearer(token));

  before(async () => {
    const appDir = await writeTempApp({
      api: { post: POST, writer: WRITER },
      components: { 'shared.seo': SEO },
      config: { permissions: {} },
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'ctb', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  it('answers a content-type as Strapi does', async () => {
    const res = await get('/content-types/api::post.post').expect(200);
    expect(res.body).to.deep.equal({
      data: {
        uid: 'api::post.post',
        apiID: 'post',
        schema: {
          draftAndPublish: true,
          displayName: 'Post',
          singularName: 'post',
          pluralName: 'posts',
          description: 'A blog post',
          pluginOptions: {},
          kind: 'collectionType',
          collectionName: 'posts',
          attributes: {
            title: { type: 'string', required: true },
            color: { type: 'string', customField: 'plugin::color-picker.color', options: { format: 'hex' } },
            cover: { type: 'media', multiple: false, required: false, private: false, allowedTypes: ['images'] },
            writer: {
              type: 'relation',
              relation: 'manyToOne',
              target: 'api::writer.writer',
              inversedBy: 'posts',
              targetAttribute: 'posts',
              private: false,
            },
            seo: { type: 'component', repeatable: false, component: 'shared.seo' },
          },
          visible: true,
          restrictRelationsTo: null,
        },
      },
    });
    const writer = await get('/content-types/api::writer.writer').expect(200);
    expect(writer.body.data.schema).to.include({ draftAndPublish: false, description: '' });
    expect(writer.body.data.schema.attributes.posts).to.deep.equal({
      type: 'relation',
      relation: 'oneToMany',
      target: 'api::post.post',
      mappedBy: 'writer',
      private: true,
      targetAttribute: 'writer',
    });
  });

  it('lists the content-types (plugins first, a kind asked for) and the components', async () => {
    const all = await get('/content-types').expect(200);
    const uids = all.body.data.map((entry: { uid: string }) => entry.uid);
    expect(uids.indexOf('plugin::users-permissions.user')).to.be.lessThan(uids.indexOf('api::post.post'));
    expect(uids.slice(-2)).to.deep.equal(['api::post.post', 'api::writer.writer']);
    const role = all.body.data.find((entry: { uid: string }) => entry.uid === 'plugin::users-permissions.role');
    expect(role.plugin).to.equal('users-permissions');
    expect(role.schema).to.include({ visible: false });
    expect(role.schema.restrictRelationsTo).to.deep.equal([]);
    expect((await get('/content-types?kind=singleType').expect(200)).body).to.deep.equal({ data: [] });
    const components = await get('/components').expect(200);
    expect(components.body).to.deep.equal({
      data: [
        {
          uid: 'shared.seo',
          category: 'shared',
          apiId: 'seo',
          schema: {
            displayName: 'seo',
            description: '',
            icon: 'search',
            collectionName: 'components_shared_seos',
            attributes: { metaTitle: { type: 'string', required: true } },
          },
        },
      ],
    });
    expect((await get('/components/shared.seo').expect(200)).body.data.uid).to.equal('shared.seo');
  });

  it("answers Strapi's own bodies for an unknown uid or kind", async () => {
    expect((await get('/content-types/api::nope.nope').expect(404)).body).to.deep.equal({
      error: 'contentType.notFound',
    });
    expect((await get('/components/nope.nope').expect(404)).body).to.deep.equal({ error: 'component.notFound' });
    const message = 'this must be one of the following values: singleType, collectionType';
    expect((await get('/content-types?kind=bogus').expect(400)).body).to.deep.equal({
      error: {
        name: 'ValidationError',
        details: { errors: [{ path: [], message, name: 'ValidationError' }] },
        message,
      },
    });
  });

  it('refuses callers without its permission, and lists its actions for the roles', async () => {
    const refused = await request(service.app).get('/api/content-type-builder/content-types').expect(403);
    expect(refused.body.error).to.include({ status: 403, name: 'ForbiddenError' });
    const catalogue = await request(service.app)
      .get('/api/users-permissions/permissions')
      .set(bearer(token))
      .expect(200);
    expect(catalogue.body.permissions['plugin::content-type-builder'].controllers).to.deep.equal({
      components: { getComponents: { enabled: false, policy: '' }, getComponent: { enabled: false, policy: '' } },
      'content-types': {
        getContentTypes: { enabled: false, policy: '' },
        getContentType: { enabled: false, policy: '' },
      },
    });
  });
});
