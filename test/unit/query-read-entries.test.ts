import { expect } from 'chai';
import { readEntries, readEntry } from '../../src/query/index.js';
import { UNRESTRICTED, type QueryAccess } from '../../src/query/access.js';
import { seedPublication } from '../helpers/seed.js';
import { createCommandCountingService, type TestService } from '../helpers/server.js';

/** readEntries / readEntry (the reusable read of src/query) on the demo seed: plain style, access, one aggregation. */
describe('query readEntries', () => {
  let service: TestService;
  let commands: string[] = [];
  before(async () => {
    ({ service, commands } = await createCommandCountingService());
    await seedPublication(service.context);
  });
  after(() => service.close());

  const ctx = (access: QueryAccess = UNRESTRICTED) => ({ ...service.context, access });

  it('answers flat objects in the plain style, relations included', async () => {
    const { entries, pagination } = await readEntries(
      ctx(),
      'api::article.article',
      {
        fields: ['title'],
        populate: { author: { fields: ['name'] }, tags: { fields: ['name'] } },
        pagination: { pageSize: '1' },
      },
      { style: 'plain' },
    );
    expect(entries).to.deep.equal([
      {
        id: 1,
        title: 'Getting Started with Strapi',
        author: { id: 1, name: 'Alice Martin' },
        tags: [
          { id: 2, name: 'node.js' },
          { id: 6, name: 'Paris' },
        ],
      },
    ]);
    expect(pagination).to.deep.equal({ page: 1, pageSize: 1, pageCount: 34, total: 34 });
  });

  it('leaves out relations to types the caller cannot read', async () => {
    const entry = await readEntry(
      ctx({ canRead: (uid) => uid !== 'api::author.author' }),
      'api::article.article',
      { _id: 1 },
      { fields: ['title'], populate: '*' },
    );
    expect(entry?.attributes).to.not.have.property('author');
    expect(entry?.attributes).to.not.have.property('reviewer');
    expect(entry?.attributes).to.have.property('tags');
  });

  it('runs one aggregation, plus one count only when the total is answered', async () => {
    const query = { populate: { author: { populate: ['profile'] }, tags: '*', category: '*' } };
    commands.length = 0;
    await readEntries(ctx(), 'api::article.article', query);
    expect(commands).to.have.length(2);
    commands.length = 0;
    await readEntries(ctx(), 'api::article.article', { ...query, pagination: { withCount: 'false' } });
    expect(commands).to.deep.equal(['aggregate']);
  });

  it('keeps internal fields out of every level', async () => {
    const entry = await readEntry(
      ctx(),
      'api::article.article',
      { _id: 1 },
      { populate: { localizations: '*', author: { populate: '*' } } },
    );
    expect(JSON.stringify(entry)).to.not.match(/"_id"|localeGroup|__v|__order|__rev|__p\d|internalNotes|secretCode/);
  });
});
