// strapi.db.query writes as Strapi's query engine: none of the entity service's validation
// (test/fixtures/query-engine-project), yet nothing the database could not hold.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { ValidationError } from '../../src/errors/index.js';
import { runningStrapi, type StrapiApp } from '../../src/lifecycle/index.js';
import { createTestService, type TestService } from '../helpers/server.js';

const PROJECT = fileURLToPath(new URL('../fixtures/query-engine-project', import.meta.url));
const GADGET = 'api::gadget.gadget';

async function refusal(write: () => Promise<unknown>): Promise<ValidationError> {
  try {
    await write();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('the write was not refused');
}

describe('strapi.db.query writes without the entity service validation', () => {
  let service: TestService;
  let strapi: StrapiApp;
  const gadgets = () => service.context.connection.collection<{ _id: number } & Record<string, unknown>>('gadgets');
  before(async () => {
    service = await createTestService({ appDir: PROJECT });
    const running = runningStrapi();
    if (!running) throw new Error('no running strapi');
    strapi = running;
  });
  after(() => service.close());

  it("a users afterCreate clearing the password through db.query (below its minimum length): registration answers 200 (Prototypr's)", async () => {
    const res = await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'magic-ann', email: 'ann@example.org', password: 'Password123!' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const stored = await service.context.connection
      .collection<{ _id: number; password?: string }>('up_users')
      .findOne({ _id: res.body.user.id as number });
    expect(stored?.password).to.equal('');
    const login = await request(service.app)
      .post('/api/auth/local')
      .send({ identifier: 'magic-ann', password: 'Password123!' });
    expect(login.status).to.equal(400);
  });

  it('create and update store what breaks required, lengths, regex, ranges, enumeration, email and list sizes', async () => {
    const created = await strapi.db.query(GADGET).create({
      data: { name: 'X1', rating: 9, kind: 'medium', contact: 'nobody', parts: [{ label: 'longer label' }] },
    });
    expect(created).to.deep.include({ name: 'X1', rating: 9, kind: 'medium', contact: 'nobody' });
    const id = created!.id;
    await strapi.db.query(GADGET).update({ where: { id }, data: { name: 'a-very-long-name', rating: 0, parts: [] } });
    expect(await gadgets().findOne({ _id: id })).to.deep.include({ name: 'a-very-long-name', rating: 0, parts: [] });
    // a missing required attribute
    const nameless = await strapi.db.query(GADGET).create({ data: { code: 'nameless' } });
    expect((await gadgets().findOne({ _id: nameless!.id }))?.name).to.equal(undefined);
    const { count } = await strapi.db.query(GADGET).updateMany({ where: { id: nameless!.id }, data: { rating: -1 } });
    expect(count).to.equal(1);
    const many = await strapi.db.query(GADGET).createMany({ data: [{ name: '' }, { kind: 'other' }] });
    expect(many.count).to.equal(2);
    // the same data through the entity service (and REST) is refused
    const refused = await refusal(() => strapi.entityService.create(GADGET, { data: { name: 'X1', rating: 9 } }));
    expect(refused.message).to.be.a('string');
    const rest = await request(service.app)
      .post('/api/gadgets')
      .send({ data: { name: 'X1' } });
    expect(rest.status).to.equal(400);
  });

  it('values are still cast to their stored types; one that cannot be is a ValidationError, nothing written', async () => {
    const cast = await strapi.db.query(GADGET).create({ data: { name: 12, rating: '4' } });
    expect(await gadgets().findOne({ _id: cast!.id })).to.deep.include({ name: '12', rating: 4 });
    const before = await gadgets().countDocuments();
    await refusal(() => strapi.db.query(GADGET).create({ data: { name: 'ok', rating: 'many' } }));
    await refusal(() => strapi.db.query(GADGET).create({ data: { name: { nested: true } } }));
    expect(await gadgets().countDocuments()).to.equal(before);
  });

  it('a unique attribute stays unique (its index refuses the second value), on create and update', async () => {
    await strapi.db.query(GADGET).create({ data: { name: 'first', code: 'taken' } });
    const second = await refusal(() => strapi.db.query(GADGET).create({ data: { name: 'second', code: 'taken' } }));
    expect(second.message).to.equal('This attribute must be unique');
    const other = await strapi.db.query(GADGET).create({ data: { name: 'other', code: 'free' } });
    await refusal(() => strapi.db.query(GADGET).update({ where: { id: other!.id }, data: { code: 'taken' } }));
    expect((await gadgets().findOne({ _id: other!.id }))?.code).to.equal('free');
  });
});
