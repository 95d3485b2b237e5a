// Relation input of every form on an update, read as Strapi 4.26 reads it: its relation check
// reads the `connect` list, else the `set` list, else the value as a list, and fails ("Invalid
// relations", path []) on a list that is none or holds `null` or an object without `id`; its
// database layer reads `set` only when truthy and skips nulls in `disconnect`. Also `data` given
// as an array to a localized entry's update, and a dynamic zone given one object. Expected answers
// recorded from the reference Strapi 4.26.2.
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { seedPublication } from '../helpers/seed.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

const ARTICLE = 'api::article.article';
const invalidRelations = [{ path: [], message: 'Invalid relations', name: 'ValidationError' }];
const missing = (uid: string) => [
  {
    path: [],
    message: `1 relation(s) of type ${uid} associated with this entity do not exist`,
    name: 'ValidationError',
  },
];

describe('REST writes: relation input forms on an update (Strapi 4.26)', () => {
  let service: TestService;
  let client: WriteClient;
  let id: number;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    client = await writeClient(service);
    const res = await client.post('/api/articles', { data: { title: 'forms', tags: [1, 2], author: 1 } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    id = res.body.data.id;
  });
  after(() => service.close());

  const stored = async () => {
    const entry = await client.stored(ARTICLE, id);
    return { tags: entry?.tags ?? [], author: entry?.author ?? null };
  };

  async function refusedWith(data: Record<string, unknown>, errors: unknown[]): Promise<void> {
    const before = await stored();
    const res = await client.put(`/api/articles/${id}`, { data });
    expect([res.status, res.body.error?.details.errors], JSON.stringify(data)).to.deep.equal([400, errors]);
    expect(await stored(), 'nothing written').to.deep.equal(before);
  }

  it('a connect or set list holding null or an object without id, or no list at all, is "Invalid relations"', async () => {
    for (const tags of [
      { connect: [null] },
      { connect: [null, 3] },
      { connect: [{}] },
      { connect: [[]] },
      { connect: {} },
      { connect: { id: 3 } },
      { connect: 3 },
      { set: [null] },
      { set: 3 },
      [null],
      [null, 2],
    ])
      await refusedWith({ tags }, invalidRelations);
    for (const author of [{ connect: [null] }, [null], { set: [null] }])
      await refusedWith({ author }, invalidRelations);
  });

  it('an entry `{ id: null }` is looked up and reported missing', async () => {
    await refusedWith({ tags: { connect: [{ id: null }] } }, missing('api::tag.tag'));
    await refusedWith({ author: { connect: [{ id: null }] } }, missing('api::author.author'));
  });

  it('of several relations missing entries, the first type in attribute order is reported, however the id was written', async () => {
    await refusedWith({ category: '1.5', tags: [9999] }, missing('api::category.category'));
    await refusedWith({ tags: [9999], category: '1.5' }, missing('api::category.category'));
    await refusedWith({ category: 'x', author: [9999] }, missing('api::author.author'));
    await refusedWith({ tags: ['abc'], reviewer: 9999, category: 9999 }, missing('api::category.category'));
  });

  it('`set: null`, an empty object and nulls inside `disconnect` leave the relation as it is', async () => {
    for (const tags of [{ set: null }, {}, { disconnect: [null] }, { connect: null, disconnect: null }]) {
      const res = await client.put(`/api/articles/${id}?populate[tags][fields][0]=id`, { data: { tags } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.attributes.tags.data.map((t: { id: number }) => t.id)).to.deep.equal([1, 2]);
    }
    for (const author of [{}, { disconnect: [null] }]) {
      const res = await client.put(`/api/articles/${id}`, { data: { author } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    expect(await stored()).to.deep.equal({ tags: [1, 2], author: 1 });
  });

  it('`disconnect` of numbers no entry can have (0, -1, "1.5", { id: "0" }) disconnects nothing, with a 200 (Strapi 4.26)', async () => {
    for (const disconnect of [['1.5'], [0], [-1], [{ id: '0' }], 0, [0, 2]]) {
      const res = await client.put(`/api/articles/${id}?populate[tags][fields][0]=id`, {
        data: { tags: { disconnect } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    expect(await stored()).to.deep.equal({ tags: [1], author: 1 });
    const created = await client.post('/api/categories', {
      data: { name: 'disconnect on create', articles: { connect: [id], disconnect: [3, '1.5'] } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    // what is no number is still refused (Strapi: a 500 on an update)
    await refusedWith({ tags: { disconnect: [true] } }, [
      {
        path: ['tags'],
        message: 'tags must be an id, an array of ids or { connect, disconnect, set }',
        name: 'ValidationError',
      },
    ]);
    const restored = await client.put(`/api/articles/${id}`, { data: { tags: [1, 2] } });
    expect(restored.status).to.equal(200);
  });

  it('an array as the data of a localized entry’s update writes nothing and answers the entry', async () => {
    for (const data of [[], [1], [{ title: 'changed' }]]) {
      const res = await client.put(`/api/articles/${id}?fields[0]=title`, { data });
      expect([res.status, res.body.data?.attributes], JSON.stringify(data)).to.deep.equal([200, { title: 'forms' }]);
    }
    // other types refuse it as a create does
    const res = await client.put('/api/notes/1', { data: [] });
    expect([res.status, res.body.error.message]).to.deep.equal([
      400,
      'this must be a `object` type, but the final value was: `null` (cast from the value `[]`).',
    ]);
  });

  it('a dynamic zone given one object: the type error, with the relation check’s error when it names no known component', async () => {
    const typeError = (printed: string) => ({
      path: ['blocks'],
      message: `blocks must be a \`array\` type, but the final value was: \`${printed}\`.`,
      name: 'ValidationError',
    });
    await refusedWith({ blocks: { __component: 'blocks.quote', text: 'q' } }, [
      typeError('{\n  "__component": "\\"blocks.quote\\"",\n  "text": "\\"q\\""\n}'),
    ]);
    await refusedWith({ blocks: { __component: 'blocks.zzz' } }, [
      typeError('{\n  "__component": "\\"blocks.zzz\\""\n}'),
      ...invalidRelations,
    ]);
    await refusedWith({ blocks: { text: 'q' } }, [
      typeError('{\n  "text": "\\"q\\""\n}'),
      {
        path: [],
        message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
        name: 'ValidationError',
      },
    ]);
  });
});
