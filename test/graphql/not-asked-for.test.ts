// An app whose schemas GraphQL cannot express (an enumeration value `true`): without
// @strapi/plugin-graphql it never had GraphQL in Strapi, so its REST API runs without it.
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const project = (dependencies: Record<string, string>) =>
  writeTempProject({
    'package.json': JSON.stringify({ name: 'no-graphql', dependencies }),
    'config/permissions.json': JSON.stringify({ public: ['api::flag.flag.find', 'api::flag.flag.create'] }),
    'src/api/flag/content-types/flag/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'flags',
      info: { singularName: 'flag', pluralName: 'flags', displayName: 'Flag' },
      attributes: { state: { type: 'enumeration', enum: ['true', 'false'] } },
    }),
  });

describe('GraphQL an app did not ask for, on schemas it cannot express', () => {
  it('is not served (a warning says why); the REST API runs', async () => {
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir: await project({ '@strapi/strapi': '4.9.0' }), logger });
    try {
      const warned = lines.filter((line) => line.level === WARN).map((line) => String(line.msg));
      expect(warned.some((msg) => msg.startsWith('GraphQL is not served: its schema cannot be built'))).to.equal(true);
      await request(service.app)
        .post('/api/flags')
        .send({ data: { state: 'true' } })
        .expect(200);
      const { body } = await request(service.app).get('/api/flags').expect(200);
      expect(body.data[0].attributes).to.include({ state: 'true' });
      // as for any path nothing serves (Strapi's answers): 405 to a POST, 404 to a GET
      await request(service.app).post('/graphql').send({ query: '{ flags { data { id } } }' }).expect(405);
      await request(service.app).get('/graphql').set('Accept', 'text/html').expect(404);
    } finally {
      await service.close();
    }
  });

  it('stops start-up when the app installs @strapi/plugin-graphql, as Strapi cannot build that schema either', async () => {
    const appDir = await project({ '@strapi/strapi': '4.9.0', '@strapi/plugin-graphql': '4.9.0' });
    const failure = await createTestService({ appDir }).then(
      async (service) => {
        await service.close();
        return undefined;
      },
      (err: unknown) => err as Error,
    );
    expect(failure?.message).to.match(/^plugin graphql: cannot start on this app: /);
  });
});
