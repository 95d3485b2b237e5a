// A custom field whose plugin fills its values on the server, written for this test with the
// mechanism of strapi-advanced-uuid 1.x (Strapi 4): register makes a `uid` custom field, bootstrap
// finds the attributes using it in strapi.contentTypes and subscribes to strapi.db.lifecycles,
// whose beforeCreate fills a missing value in `event.params.data` and whose beforeCreate and
// beforeUpdate refuse a badly formed one with @strapi/utils' handleYupError. REST and GraphQL
// writes both run it; a refused value stores nothing.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const CODE_SERVER = `'use strict';
const { randomUUID } = require('node:crypto');
const { handleYupError } = require('@strapi/utils');
const FIELD = 'plugin::ticket-code.code';
const check = (event, fields) => {
  const inner = [];
  for (const field of fields) {
    const given = event.params.data[field];
    if (event.action === 'beforeCreate' && !given) event.params.data[field] = 'T-' + randomUUID();
    else if (given && !/^T-[0-9a-f-]{36}$/.test(given))
      inner.push({ name: 'ValidationError', path: field, message: 'The code format is invalid.' });
  }
  if (inner.length) handleYupError({ inner }, 'You have some issues');
};
module.exports = {
  register({ strapi }) {
    strapi.customFields.register({ name: 'code', plugin: 'ticket-code', type: 'uid' });
  },
  bootstrap({ strapi }) {
    const models = {};
    for (const [uid, contentType] of Object.entries(strapi.contentTypes)) {
      const fields = Object.keys(contentType.attributes).filter((name) => contentType.attributes[name].customField === FIELD);
      if (fields.length) models[uid] = fields;
    }
    strapi.db.lifecycles.subscribe({
      models: Object.keys(models),
      beforeCreate: (event) => check(event, models[event.model.uid]),
      beforeUpdate: (event) => check(event, models[event.model.uid]),
    });
  },
};
`;

describe('custom fields whose plugin fills values on the server (db lifecycles, as strapi-advanced-uuid)', () => {
  let service: TestService;
  const api = () => request(service.app);
  const CODE = /^T-[0-9a-f-]{36}$/;

  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-server-filled-'));
    await writeFiles(appDir, {
      'package.json': json({ name: 'app', dependencies: { 'strapi-plugin-ticket-code': '1.0.0' } }),
      'node_modules/strapi-plugin-ticket-code/package.json': json({
        name: 'strapi-plugin-ticket-code',
        version: '1.0.0',
        strapi: { name: 'ticket-code', kind: 'plugin' },
      }),
      'node_modules/strapi-plugin-ticket-code/strapi-server.js': CODE_SERVER,
      'src/api/ticket/content-types/ticket/schema.json': json({
        kind: 'collectionType',
        collectionName: 'tickets',
        info: { singularName: 'ticket', pluralName: 'tickets', displayName: 'Ticket' },
        options: { draftAndPublish: false },
        attributes: {
          title: { type: 'string' },
          code: { type: 'customField', customField: 'plugin::ticket-code.code' },
        },
      }),
      'config/permissions.json': json({
        public: ['api::ticket.ticket.find', 'api::ticket.ticket.create', 'api::ticket.ticket.update'],
      }),
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('fills the value a REST or GraphQL create leaves out, and keeps a given one', async () => {
    const rest = await api()
      .post('/api/tickets')
      .send({ data: { title: 'rest' } })
      .expect(200);
    expect(rest.body.data.attributes.code).to.match(CODE);
    const graphql = await api()
      .post('/graphql')
      .send({ query: 'mutation { createTicket(data: { title: "gql" }) { data { attributes { code } } } }' })
      .expect(200);
    expect(graphql.body.data.createTicket.data.attributes.code).to.match(CODE);
    const given = `T-${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    const kept = await api()
      .post('/api/tickets')
      .send({ data: { title: 'given', code: given } })
      .expect(200);
    expect(kept.body.data.attributes.code).to.equal(given);
  });

  it("refuses a value the plugin's check refuses, with its message, storing nothing", async () => {
    const before = (await api().get('/api/tickets').expect(200)).body.data as Array<{ attributes: object }>;
    const created = await api()
      .post('/api/tickets')
      .send({ data: { title: 'bad', code: 'nope' } })
      .expect(400);
    expect(created.body.error).to.deep.include({ name: 'ValidationError', message: 'You have some issues' });
    expect(created.body.error.details.errors[0]).to.include({ message: 'The code format is invalid.' });
    const updated = await api()
      .put('/api/tickets/1')
      .send({ data: { code: 'nope' } })
      .expect(400);
    expect(updated.body.error.details.errors[0]).to.include({ message: 'The code format is invalid.' });
    const after = (await api().get('/api/tickets').expect(200)).body.data as Array<{ attributes: object }>;
    expect(after).to.deep.equal(before);
  });
});
