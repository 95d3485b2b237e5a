// strapi.container.get(name): Strapi v4's registry container, which projects reach for in their
// register phase (`strapi.container.get('auth').register('content-api', strategy)`,
// `get('custom-fields').add(field)`) and in their code (`get('config').get(path)`); the registries
// the service keeps are the same objects as `strapi.auth`, `strapi.config`, `strapi.sanitizers`;
// asking for another stops start-up with one line saying what is offered.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { writeFiles } from '../helpers/temp-app.js';

const REVIEW = {
  kind: 'collectionType',
  collectionName: 'reviews',
  info: { singularName: 'review', pluralName: 'reviews', displayName: 'Review' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, stars: { type: 'customField', customField: 'global::stars' } },
};

const FILES = {
  'config/api.js': 'module.exports = { rest: { defaultLimit: 7 } };',
  'config/permissions.json': JSON.stringify({ public: ['api::review.review.create', 'api::review.review.find'] }),
  'src/api/review/content-types/review/schema.json': JSON.stringify(REVIEW),
  'src/api/review/routes/review.js':
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::review.review');",
  'src/api/review/routes/registries.js': `module.exports = { routes: [{ method: 'GET', path: '/registries', handler: 'review.registries', config: { auth: false } }] };`,
  'src/api/review/controllers/review.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::review.review', ({ strapi }) => ({
  registries() {
    return {
      sameAuth: strapi.container.get('auth') === strapi.auth,
      sameSanitizers: strapi.container.get('sanitizers') === strapi.sanitizers,
      sameValidators: strapi.container.get('validators') === strapi.validators,
      defaultLimit: strapi.container.get('config').get('api.rest.defaultLimit'),
    };
  },
}));`,
  'src/index.js': `module.exports = {
    register({ strapi }) {
      strapi.container.get('custom-fields').add({ name: 'stars', type: 'integer' });
    },
  };`,
};

describe('strapi.container.get(name)', () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-container-'));
    await writeFiles(appDir, FILES);
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("answers the service's auth, config, sanitizers and validators: the objects strapi.* gives", async () => {
    const res = await request(service.app).get('/api/registries');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ sameAuth: true, sameSanitizers: true, sameValidators: true, defaultLimit: 7 });
  });

  it("registers a custom field through get('custom-fields').add, as strapi.customFields.register does", async () => {
    const created = await request(service.app)
      .post('/api/reviews')
      .send({ data: { title: 'good', stars: '4' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.data.attributes).to.include({ title: 'good', stars: 4 });
    const refused = await request(service.app)
      .post('/api/reviews')
      .send({ data: { title: 'bad', stars: 'many' } });
    expect(refused.status).to.equal(400);
    const list = await request(service.app).get('/api/reviews');
    expect(list.body.data.map((r: { attributes: { title: string } }) => r.attributes.title)).to.deep.equal(['good']);
  });

  it('stops start-up on a registry the service does not keep, saying which it offers', async () => {
    const message = await startUpError({
      'src/index.js': "module.exports = { register({ strapi }) { strapi.container.get('modules').register(); } };",
    });
    expect(message).to.include("strapi.container.get('modules') is not supported by Content Service");
    expect(message).to.include(
      "get('auth'), get('config'), get('sanitizers'), get('validators'), get('custom-fields')",
    );
    expect(message).to.include('src/index.js');
  });
});
