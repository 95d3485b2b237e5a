// A plugin's destroy that starts a query without awaiting it, as @notum-cz/strapi-plugin-record-locking
// 1.3 clears its open-entity locks (`strapi.db.query(uid).deleteMany()` in destroy): Strapi's
// database lets the query end before it closes, so here too the query runs to its end on stop, and
// no rejection from a closed client reaches the process.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createServer } from '../../src/app.js';
import { freshDatabaseUri, rawClient } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const LOCKS_SERVER = `'use strict';
module.exports = {
  contentTypes: {
    'open-entity': {
      schema: {
        kind: 'collectionType',
        collectionName: 'locking_open_entity',
        info: { singularName: 'open-entity', pluralName: 'open-entities', displayName: 'Open Entity' },
        options: { draftAndPublish: false },
        attributes: { entityType: { type: 'string' }, connectionId: { type: 'string' } },
      },
    },
  },
  async bootstrap({ strapi }) {
    for (let i = 0; i < 20; i++)
      await strapi.db.query('plugin::locks.open-entity').create({ data: { entityType: 'api::a.a', connectionId: 'c' + i } });
  },
  destroy({ strapi }) {
    strapi.db.query('plugin::locks.open-entity').deleteMany();
    strapi.entityService.findMany('plugin::locks.open-entity', { filters: { connectionId: 'c1' } });
  },
};
`;

describe("a plugin's destroy starting queries it does not await (strapi-plugin-record-locking)", () => {
  it('lets them end before the database closes, without an unhandled rejection', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-destroy-'));
    await writeFiles(appDir, {
      'package.json': json({ name: 'app', dependencies: { 'strapi-plugin-locks': '1.0.0' } }),
      'node_modules/strapi-plugin-locks/package.json': json({
        name: 'strapi-plugin-locks',
        version: '1.0.0',
        strapi: { name: 'locks', kind: 'plugin' },
      }),
      'node_modules/strapi-plugin-locks/strapi-server.js': LOCKS_SERVER,
      'src/api/a/content-types/a/schema.json': json({
        kind: 'collectionType',
        info: { singularName: 'a', pluralName: 'as', displayName: 'A' },
        attributes: { title: { type: 'string' } },
      }),
    });
    const databaseUri = freshDatabaseUri();
    const { pathname } = new URL(databaseUri);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    const client = await rawClient();
    try {
      const service = await createServer({ appDir, databaseUri });
      const locks = client.db(pathname.slice(1)).collection('locking_open_entity');
      expect(await locks.countDocuments()).to.equal(20);
      await service.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).to.deep.equal([]);
      expect(await locks.countDocuments()).to.equal(0);
      await client.db(pathname.slice(1)).dropDatabase();
    } finally {
      process.off('unhandledRejection', listener);
      await client.close();
    }
  });
});
