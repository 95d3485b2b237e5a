// Transactions are used where the database has them: a replica set, a mongos, or the embedded
// engine (unless started without them). These tests run the committed path on the engine: a
// write's commands carry its transaction and are committed together, and a write that fails
// half-way (a collection validator refusing the inverse-side write, or a delete's sweep) leaves
// nothing of itself behind. With the engine's transactions off (ENGINE_TRANSACTIONS=off), the
// service runs without them.
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import type { ServiceConfig } from '../../src/config/index.js';
import { selectDatabase, type DatabaseHandle } from '../../src/database/select-database.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';

describe('write transactions', () => {
  let service: TestService;
  const commands: { name: string; transaction: boolean }[] = [];
  let auth: Record<string, string>;
  let raw: MongoClient;
  before(async () => {
    const uri = new URL(freshDatabaseUri());
    uri.searchParams.set('monitorCommands', 'true');
    service = await createTestService({}, uri.toString());
    service.context.connection.getClient().on('commandStarted', (event) => {
      commands.push({ name: event.commandName, transaction: event.command.startTransaction === true });
    });
    auth = {
      Authorization: `Bearer ${(await createApiToken(service.context, { name: 'tx', type: 'full-access' })).accessKey}`,
    };
    raw = service.context.connection.getClient();
  });
  after(() => service.close());

  const db = () => raw.db(service.context.connection.db?.databaseName);
  const post = (path: string, data: object) => request(service.app).post(path).set(auth).send({ data });

  it('the embedded engine has transactions: a create starts one with its first write and commits it', async () => {
    expect(service.context.models.transactions).to.equal(true);
    commands.length = 0;
    const res = await post('/api/notes', { title: 'in a transaction' });
    expect(res.status).to.equal(200);
    expect(commands.find((c) => c.name === 'insert')).to.deep.equal({ name: 'insert', transaction: true });
    expect(commands.some((c) => c.name === 'commitTransaction')).to.equal(true);
  });

  it('an entry whose inverse-side write fails is not written at all', async () => {
    const article = await post('/api/articles', { title: 'Kept as it was' });
    expect(article.status).to.equal(200);
    const articleId = (article.body as { data: { id: number } }).data.id;
    const authorsBefore = await db().collection('authors').countDocuments();
    // the inverse side of author.articles is article.author: refuse any article with an author
    await db().command({ collMod: 'articles', validator: { author: null } });
    try {
      const res = await post('/api/authors', { name: 'Half a write', articles: [articleId] });
      expect(res.status).to.equal(500);
    } finally {
      await db().command({ collMod: 'articles', validator: {} });
    }
    expect(await db().collection('authors').countDocuments()).to.equal(authorsBefore);
    expect(await db().collection('authors').countDocuments({ name: 'Half a write' })).to.equal(0);
    expect(
      (
        await db()
          .collection('articles')
          .findOne({ _id: articleId as never })
      )?.author,
    ).to.equal(null);
  });

  it('a delete whose sweep fails deletes nothing', async () => {
    const author = await post('/api/authors', { name: 'Still here' });
    const authorId = (author.body as { data: { id: number } }).data.id;
    const article = await post('/api/articles', { title: 'Still linked', author: authorId });
    const articleId = (article.body as { data: { id: number } }).data.id;
    // the sweep clears article.author: refuse articles without one
    await db().command({ collMod: 'articles', validator: { author: { $ne: null } }, validationLevel: 'moderate' });
    try {
      const res = await request(service.app).delete(`/api/authors/${authorId}`).set(auth);
      expect(res.status).to.equal(500);
    } finally {
      await db().command({ collMod: 'articles', validator: {}, validationLevel: 'strict' });
    }
    expect(
      await db()
        .collection('authors')
        .countDocuments({ _id: authorId as never }),
    ).to.equal(1);
    expect(
      (
        await db()
          .collection('articles')
          .findOne({ _id: articleId as never })
      )?.author,
    ).to.equal(authorId);
  });

  it('on an engine started with ENGINE_TRANSACTIONS=off, the service writes without them', async () => {
    const saved = process.env.ENGINE_TRANSACTIONS;
    process.env.ENGINE_TRANSACTIONS = 'off';
    let database: DatabaseHandle;
    try {
      database = await selectDatabase({ database: {} } as ServiceConfig, { memory: true });
    } finally {
      if (saved === undefined) delete process.env.ENGINE_TRANSACTIONS;
      else process.env.ENGINE_TRANSACTIONS = saved;
    }
    const other = await createTestService({}, database.uri);
    try {
      expect(other.context.models.transactions).to.equal(false);
      const token = (await createApiToken(other.context, { name: 'tx', type: 'full-access' })).accessKey;
      const res = await request(other.app)
        .post('/api/notes')
        .set({ Authorization: `Bearer ${token}` })
        .send({ data: { title: 'no transaction' } });
      expect(res.status).to.equal(200);
    } finally {
      await other.close();
      await database.stop();
    }
  });
});
