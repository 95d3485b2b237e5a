// A project's own upload endpoints, as real Strapi v4 projects write them: a custom route whose
// controller reads `ctx.request.files` and the form's fields from `ctx.request.body` (koa-body's
// multipart), and stores the files with `strapi.plugin('upload').service('upload')`.
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const CONTROLLER = `
const upload = () => strapi.plugin('upload').service('upload');
module.exports = {
  async avatar(ctx) {
    const { files, body } = ctx.request;
    const [stored] = await upload().upload({ data: { fileInfo: { alternativeText: body.alt } }, files: files.avatar });
    await strapi.entityService.update('api::profile.profile', ctx.params.id, { data: { avatar: stored.id } });
    ctx.body = { id: stored.id, name: stored.name, alt: stored.alternativeText, tags: body.tag, field: Object.keys(files) };
  },
  async docs(ctx) {
    const stored = await upload().uploadToEntity(
      { id: Number(ctx.params.id), model: 'api::profile.profile', field: 'docs' },
      ctx.request.files.docs,
    );
    ctx.body = stored.map((file) => file.name);
  },
};
`;

describe("a project's own upload endpoints (ctx.request.files, the upload service)", () => {
  let service: TestService;
  let token: string;
  let uploads: string;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-app-uploads-'));
    uploads = join(appDir, 'public', 'uploads');
    await writeFiles(appDir, {
      'src/api/profile/content-types/profile/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'profiles',
        info: { singularName: 'profile', pluralName: 'profiles', displayName: 'Profile' },
        options: { draftAndPublish: false },
        attributes: {
          name: { type: 'string' },
          avatar: { type: 'media', multiple: false, allowedTypes: ['images'] },
          docs: { type: 'media', multiple: true },
        },
      }),
      'src/api/profile/controllers/profile-files.js': CONTROLLER,
      // the common override: the core action through super, with a touch of the app's own
      'src/api/profile/controllers/profile.js': `
        const { createCoreController } = require('@strapi/strapi').factories;
        module.exports = createCoreController('api::profile.profile', () => ({
          async create(ctx) {
            const answer = await super.create(ctx);
            answer.meta = { ...answer.meta, via: 'app', files: Object.keys(ctx.request.files || {}) };
            return answer;
          },
        }));
      `,
      // koa-body's limit for the app's handlers: the file bytes of one request (the plugin's sizeLimit
      // applies later, in the upload service)
      'config/middlewares.js': `module.exports = [
        'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy',
        'strapi::session', 'strapi::query',
        { name: 'strapi::body', config: { formidable: { maxFileSize: 100000 } } },
        'strapi::favicon', 'strapi::public',
      ];`,
      'src/api/profile/routes/profile-files.js': `module.exports = { routes: [
        { method: 'POST', path: '/profiles/:id/avatar', handler: 'profile-files.avatar' },
        { method: 'POST', path: '/profiles/:id/docs', handler: 'profile-files.docs' },
      ] };`,
    });
    service = await createTestService({ appDir });
    token = (await createApiToken(service.context, { name: 'uploads', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  const api = () => request(service.app);
  const auth = () => ({ Authorization: `Bearer ${token}` });

  it('gives the controller the form’s fields and files, and stores them with the upload service', async () => {
    const profile = await api()
      .post('/api/profiles')
      .set(auth())
      .send({ data: { name: 'ada' } })
      .expect(200);
    const id = profile.body.data.id as number;
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const avatar = await api()
      .post(`/api/profiles/${id}/avatar`)
      .set(auth())
      .field('alt', 'Ada, smiling')
      .field('tag', 'one')
      .field('tag', 'two')
      .attach('avatar', image, { filename: 'ada.png', contentType: 'image/png' })
      .expect(200);
    expect(avatar.body).to.deep.include({
      name: 'ada.png',
      alt: 'Ada, smiling',
      tags: ['one', 'two'],
      field: ['avatar'],
    });
    const docs = await api()
      .post(`/api/profiles/${id}/docs`)
      .set(auth())
      .attach('docs', Buffer.from('first'), { filename: 'a.txt', contentType: 'text/plain' })
      .attach('docs', Buffer.from('second'), { filename: 'b.txt', contentType: 'text/plain' })
      .expect(200);
    expect(docs.body).to.deep.equal(['a.txt', 'b.txt']);
    const read = await api().get(`/api/profiles/${id}?populate=*`).set(auth()).expect(200);
    expect(read.body.data.attributes.avatar.data.attributes).to.include({
      name: 'ada.png',
      alternativeText: 'Ada, smiling',
    });
    expect(
      read.body.data.attributes.docs.data.map((d: { attributes: { name: string } }) => d.attributes.name),
    ).to.deep.equal(['a.txt', 'b.txt']);
    // the stored bytes are the provider's; the request's own copies are gone with the response
    expect((await readdir(uploads)).length).to.be.greaterThan(2);
  });

  it('takes a multipart create through an app controller calling super.create, files and all', async () => {
    const image = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#993366' } })
      .png()
      .toBuffer();
    const created = await api()
      .post('/api/profiles?populate=avatar')
      .set(auth())
      .field('data', JSON.stringify({ name: 'cy' }))
      .attach('files.avatar', image, { filename: 'cy.png', contentType: 'image/png' })
      .expect(200);
    expect(created.body.meta).to.deep.equal({ via: 'app', files: ['files.avatar'] });
    expect(created.body.data.attributes.name).to.equal('cy');
    expect(created.body.data.attributes.avatar.data.attributes.name).to.equal('cy.png');
  });

  it('answers the upload plugin’s refusals as 4xx, storing nothing', async () => {
    const profile = await api()
      .post('/api/profiles')
      .set(auth())
      .send({ data: { name: 'bob' } })
      .expect(200);
    const before = (await readdir(uploads)).length;
    // a form without its files: the upload service refuses, as Strapi's (Files are empty)
    const refused = await api()
      .post(`/api/profiles/${profile.body.data.id}/docs`)
      .set(auth())
      .field('note', 'no file')
      .expect(400);
    expect(refused.body.error.name).to.equal('ValidationError');
    expect((await readdir(uploads)).length).to.equal(before);
    // files over strapi::body's formidable.maxFileSize, together: koa-body's 413, the handler never runs
    const tooBig = await api()
      .post(`/api/profiles/${profile.body.data.id}/docs`)
      .set(auth())
      .attach('docs', Buffer.alloc(60_000, 1), { filename: 'a.txt', contentType: 'text/plain' })
      .attach('docs', Buffer.alloc(60_000, 1), { filename: 'b.txt', contentType: 'text/plain' })
      .expect(413);
    expect(tooBig.body.error).to.deep.equal({
      status: 413,
      name: 'PayloadTooLargeError',
      message: 'FileTooBig',
      details: {},
    });
    expect((await readdir(uploads)).length).to.equal(before);
  });
});
