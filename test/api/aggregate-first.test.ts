import { expect } from 'chai';
import type { Document } from 'mongodb';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';

const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: true },
  attributes: { text: { type: 'string' }, rank: { type: 'integer' }, at: { type: 'datetime' } },
};
const UID = 'api::note.note';

// One-document reads (GET one entry, counts) run as one aggregate command read from its reply;
// lists keep the driver's cursor. Both must give the same documents.
describe('Models.aggregateFirst: one-document reads without a cursor', () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempApp({ api: { note: NOTE }, config: { permissions: { public: [`${UID}.findOne`] } } });
    service = await createTestService({ appDir });
    const at = new Date('2024-05-06T07:08:09.010Z');
    await service.context.connection
      .getClient()
      .db()
      .collection<{ _id: number }>('notes')
      .insertMany(
        Array.from({ length: 150 }, (_, i) => ({
          _id: i + 1,
          text: `note ${i + 1}`,
          rank: i % 7,
          at,
          publishedAt: at,
        })),
      );
  });
  after(() => service.close());

  /** Open cursors on the database server. */
  async function openCursors(): Promise<number> {
    const status = await service.context.connection.getClient().db('admin').command({ serverStatus: 1 });
    return Number((status.metrics as { cursor: { open: { total: unknown } } }).cursor.open.total);
  }

  const pipelines: Array<[string, Document[]]> = [
    [
      'one entry by id',
      [{ $match: { _id: 42 } }, { $sort: { _id: 1 } }, { $limit: 1 }, { $project: { text: 1, at: 1 } }],
    ],
    ['a count', [{ $match: { rank: 3 } }, { $count: 'n' }]],
    ['nothing', [{ $match: { _id: 1000 } }, { $limit: 1 }]],
  ];
  for (const [name, pipeline] of pipelines)
    it(`gives what the cursor gives: ${name}`, async () => {
      const viaCursor = await service.context.models.collection(UID).aggregate(pipeline).toArray();
      expect(await service.context.models.aggregateFirst(UID, pipeline)).to.deep.equal(viaCursor[0]);
    });

  it('closes the cursor of a pipeline that yields more than its first batch', async () => {
    const before = await openCursors();
    const first = await service.context.models.aggregateFirst(UID, [{ $sort: { _id: -1 } }]);
    expect(first).to.include({ _id: 150, text: 'note 150' });
    expect(await openCursors()).to.equal(before);
  });

  it('answers GET one entry and its 404s as before', async () => {
    const res = await request(service.app).get('/api/notes/42').expect(200);
    expect(res.body).to.deep.equal({
      data: {
        id: 42,
        attributes: {
          text: 'note 42',
          rank: 6,
          at: '2024-05-06T07:08:09.010Z',
          publishedAt: '2024-05-06T07:08:09.010Z',
          createdAt: null,
          updatedAt: null,
        },
      },
      meta: {},
    });
    await request(service.app).get('/api/notes/1000').expect(404);
  });
});
