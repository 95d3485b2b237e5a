// `strapi::body` with `multipart: false` in config/middlewares: koa-body then leaves multipart
// bodies unread, so Strapi 4.26 answers a multipart create that its `data` field is missing, the
// upload route that its files are empty, and the app's handlers find `ctx.request.body` `{}` and no
// `ctx.request.files`. Its body middleware skips the GraphQL endpoint, whose uploads still work.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const FILE = Buffer.from('hello, file\n');

describe('strapi::body with multipart: false', () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempProject({
      'config/middlewares.js': `module.exports = [
  'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query',
  { name: 'strapi::body', config: { multipart: false } },
  'strapi::public', 'strapi::favicon',
];
`,
      'config/plugins.js': 'module.exports = { graphql: { enabled: true }, i18n: { enabled: false } };',
      'config/permissions.json': JSON.stringify({
        public: [
          'api::note.note.find',
          'api::note.note.create',
          'api::note.note.echo',
          'plugin::upload.content-api.upload',
          'plugin::upload.content-api.find',
        ],
      }),
      'src/api/note/content-types/note/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'notes',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        options: { draftAndPublish: false },
        attributes: { text: { type: 'string' }, attachment: { type: 'media', multiple: false } },
      }),
      'src/api/note/routes/echo.js':
        "module.exports = { routes: [{ method: 'POST', path: '/echo', handler: 'note.echo', config: { auth: false } }] };",
      'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', () => ({
  echo(ctx) {
    ctx.body = { body: ctx.request.body, files: ctx.request.files === undefined ? 'none' : Object.keys(ctx.request.files) };
  },
}));
`,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  const api = () => request(service.app);
  const counts = async () => ({
    notes: (await api().get('/api/notes').expect(200)).body.meta.pagination.total as number,
    files: ((await api().get('/api/upload/files').expect(200)).body as unknown[]).length,
  });

  it('a multipart create answers that its data field is missing, and stores nothing', async () => {
    const res = await api()
      .post('/api/notes')
      .field('data', JSON.stringify({ text: 'sent as a form' }))
      .attach('files.attachment', FILE, 'a.txt')
      .expect(400);
    expect(res.body.error).to.include({
      name: 'ValidationError',
      message: 'When using multipart/form-data you need to provide your data in a JSON "data" field.',
    });
    expect(await counts()).to.deep.equal({ notes: 0, files: 0 });
  });

  it('the upload route answers that the files are empty', async () => {
    const res = await api().post('/api/upload').attach('files', FILE, 'a.txt').expect(400);
    expect(res.body.error).to.include({ name: 'ValidationError', message: 'Files are empty' });
    expect(await counts()).to.deep.equal({ notes: 0, files: 0 });
  });

  it("the app's handler finds ctx.request.body {} and no ctx.request.files; JSON is still read", async () => {
    const form = await api().post('/api/echo').field('text', 'hi').attach('file', FILE, 'a.txt').expect(200);
    expect(form.body).to.deep.equal({ body: {}, files: 'none' });
    const json = await api().post('/api/echo').send({ text: 'hi' }).expect(200);
    expect(json.body).to.deep.equal({ body: { text: 'hi' }, files: 'none' });
    await api()
      .post('/api/notes')
      .send({ data: { text: 'sent as JSON' } })
      .expect(200);
    expect(await counts()).to.deep.equal({ notes: 1, files: 0 });
  });

  it('GraphQL uploads still work (Strapi skips its endpoint)', async () => {
    const res = await api()
      .post('/graphql')
      .field(
        'operations',
        JSON.stringify({
          query: 'mutation($file: Upload!) { upload(file: $file) { data { attributes { name } } } }',
          variables: { file: null },
        }),
      )
      .field('map', JSON.stringify({ 0: ['variables.file'] }))
      .attach('0', FILE, 'b.txt')
      .expect(200);
    expect(res.body).to.deep.equal({ data: { upload: { data: { attributes: { name: 'b.txt' } } } } });
    expect(await counts()).to.deep.equal({ notes: 1, files: 1 });
  });
});
