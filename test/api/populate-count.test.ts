import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

// `populate[x][count]=true`: an entry's own relations are counted by the database ($count in the
// populate's $lookup), relations inside its components from the links each component holds.
describe('REST populate count of relations, of entries and of their components', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      api: {
        thing: collectionTypeSchema('thing', 'things', {
          name: { type: 'string' },
          boxes: { type: 'relation', relation: 'manyToMany', target: 'api::box.box', mappedBy: 'things' },
        }),
        box: {
          ...collectionTypeSchema('box', 'boxes', {
            label: { type: 'string' },
            things: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing', inversedBy: 'boxes' },
            main: { type: 'component', component: 'parts.ref' },
            list: { type: 'component', component: 'parts.ref', repeatable: true },
          }),
          options: { draftAndPublish: true },
        },
      },
      components: {
        'parts.ref': {
          collectionName: 'components_parts_refs',
          info: { displayName: 'ref' },
          attributes: { many: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing' } },
        },
      },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
    for (const name of ['t1', 't2', 't3', 't4']) await client.post('/api/things', { data: { name } });
    const boxes = [
      { label: 'a', things: [1, 2, 3], main: { many: [1, 2] }, list: [{ many: [3] }, { many: [] }, { many: [1, 4] }] },
      { label: 'b', things: [2], main: { many: [] }, list: [] },
      { label: 'c', things: [], publishedAt: null },
      { label: 'd', things: [2, 4] },
    ];
    for (const data of boxes) {
      const res = await client.post('/api/boxes', { data });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    // c is a draft holding t1 and t3
    expect((await client.put('/api/boxes/3', { data: { things: [1, 3] } })).status).to.equal(200);
  });
  after(() => service.close());

  const counts = (value: unknown) => (value as { data: { attributes: { count: number } } }).data.attributes.count;

  it("counts an entry's own relations, with the populate's filters", async () => {
    const res = await client.get('/api/boxes?populate[things][count]=true&publicationState=preview&sort=id');
    expect(res.status).to.equal(200);
    const all = res.body.data as Array<{ attributes: Record<string, unknown> }>;
    expect(all.map((b) => counts(b.attributes.things))).to.deep.equal([3, 1, 2, 2]);
    const filtered = await client.get(
      '/api/boxes?populate[things][count]=true&populate[things][filters][name][$in][0]=t2&populate[things][filters][name][$in][1]=t4&sort=id',
    );
    expect(
      (filtered.body.data as Array<{ attributes: Record<string, unknown> }>).map((b) => counts(b.attributes.things)),
    ).to.deep.equal([1, 1, 2]);
  });

  it('counts the inverse side, published entries only unless asked', async () => {
    const live = await client.get('/api/things?populate[boxes][count]=true&sort=id');
    expect(
      (live.body.data as Array<{ attributes: Record<string, unknown> }>).map((t) => counts(t.attributes.boxes)),
    ).to.deep.equal([1, 3, 1, 1]);
    const preview = await client.get(
      '/api/things?populate[boxes][count]=true&populate[boxes][publicationState]=preview&sort=id',
    );
    expect(
      (preview.body.data as Array<{ attributes: Record<string, unknown> }>).map((t) => counts(t.attributes.boxes)),
    ).to.deep.equal([2, 3, 2, 1]);
  });

  it('counts at a nested level', async () => {
    const res = await client.get('/api/things/2?populate[boxes][populate][things][count]=true');
    const boxes = res.body.data.attributes.boxes.data as Array<{ attributes: Record<string, unknown> }>;
    expect(boxes.map((b) => [b.attributes.label, counts(b.attributes.things)])).to.deep.equal([
      ['a', 3],
      ['b', 1],
      ['d', 2],
    ]);
  });

  it('counts the relations of each component from its own links', async () => {
    const res = await client.get(
      '/api/boxes/1?populate[main][populate][many][count]=true&populate[list][populate][many][count]=true',
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const attributes = res.body.data.attributes as { main: { many: unknown }; list: Array<{ many: unknown }> };
    expect(counts(attributes.main.many)).to.equal(2);
    expect(attributes.list.map((c) => counts(c.many))).to.deep.equal([1, 0, 2]);
  });
});
