import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `populate` over HTTP: every form, every attribute kind, nested levels, per-level parameters. */
describe('REST populate', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = async (path: string) => {
    const res = await request(service.app).get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body;
  };
  const ids = (envelope: { data: { id: number }[] }) => envelope.data.map((entry) => entry.id);

  it('populates one level of everything with *', async () => {
    const { data } = await get('/api/articles/3?populate=*');
    const a = data.attributes;
    expect(a.author.data).to.include({ id: 3 });
    expect(a.author.data.attributes).to.not.have.property('secretCode');
    expect(a.author.data.attributes).to.not.have.property('profile');
    expect(a.category.data.id).to.equal(3);
    expect(a.tags).to.deep.equal({ data: [] });
    expect(a.reviewer.data.id).to.equal(6);
    expect(a.seo).to.deep.equal({
      id: 2,
      metaTitle: '100% Organic Growth | Pub',
      metaDescription: null,
      keywords: null,
      noIndex: false,
    });
    expect(a.links).to.deep.equal([{ id: 3, label: 'Link 1 of 3', url: 'https://example.com/a/3/1', external: false }]);
    expect(a.blocks.map((block: { __component: string }) => block.__component)).to.deep.equal([
      'blocks.quote',
      'blocks.rich-text',
      'blocks.cta',
    ]);
    expect(ids(a.localizations)).to.deep.equal([43]);
  });

  it('accepts the comma, indexed, object (* / true) and dotted forms', async () => {
    for (const query of [
      'populate=author,tags',
      'populate[0]=author&populate[1]=tags',
      'populate[author]=*&populate[tags]=true',
    ]) {
      const { data } = await get(`/api/articles/1?fields[0]=title&${query}`);
      expect(Object.keys(data.attributes), query).to.have.members(['title', 'author', 'tags']);
      expect(ids(data.attributes.tags), query).to.deep.equal([2, 6]);
    }
    const dotted = await get('/api/articles/1?populate=seo.metaSocial&fields[0]=title');
    expect(dotted.data.attributes.seo.metaSocial).to.have.length(2);
    expect(dotted.data.attributes.seo.metaSocial[0]).to.deep.equal({
      id: 1,
      network: 'Twitter',
      title: 'tw 1',
      description: null,
    });
  });

  it('reads an empty value as false, as the other false texts (Strapi 4.26 casts it with Boolean)', async () => {
    for (const off of ['', 'false', 'f', '0']) {
      const query = `populate[author]=${off}&populate[tags]=*&populate[category][populate][articles]=${off}`;
      const { data } = await get(`/api/articles/1?fields[0]=title&${query}`);
      expect(Object.keys(data.attributes), query).to.have.members(['title', 'tags', 'category']);
      expect(data.attributes.category.data.attributes, query).not.to.have.property('articles');
    }
  });

  it('reads the text true as a name, as Strapi 4.26 (populate=true populates nothing, at any level)', async () => {
    const top = await get('/api/articles/1?fields[0]=title&populate=true');
    expect(top.data.attributes).to.deep.equal({ title: 'Getting Started with Strapi' });
    const nested = await get(
      '/api/articles/1?fields[0]=title&populate[author][fields][0]=name&populate[author][populate]=true',
    );
    expect(nested.data.attributes.author.data.attributes).to.deep.equal({ name: 'Alice Martin' });
    const listed = await get('/api/articles/1?fields[0]=title&populate=author,true');
    expect(Object.keys(listed.data.attributes)).to.have.members(['title', 'author']);
  });

  it('ignores unknown keys and scalar attributes', async () => {
    const body = await get('/api/articles?populate[nope]=*&populate[title]=*&fields[0]=title&pagination[pageSize]=1');
    expect(body.data[0]).to.deep.equal({ id: 1, attributes: { title: 'Getting Started with Strapi' } });
  });

  it('nests populate to any depth, through relations and components', async () => {
    const { data } = await get(
      '/api/articles/1?fields[0]=title&populate[author][fields][0]=name&populate[author][populate][profile][fields][0]=handle&populate[author][populate][address]=*',
    );
    expect(data.attributes.author.data.attributes).to.deep.equal({
      name: 'Alice Martin',
      profile: { data: { id: 1, attributes: { handle: 'alice_m' } } },
      address: { id: 1, street: '1 Main St', city: 'Paris', country: 'France', zip: '75001' },
    });
    const star = await get('/api/articles/1?populate[author][populate]=*&fields[0]=title');
    expect(star.data.attributes.author.data.attributes.profile.data.id).to.equal(1);
  });

  it('resolves inverse sides (mappedBy) by lookup, to-many and to-one', async () => {
    const category = await get('/api/categories/1?fields[0]=name&populate[articles][fields][0]=title');
    expect(ids(category.data.attributes.articles).slice(0, 4)).to.deep.equal([1, 6, 11, 16]);
    const orphan = await get('/api/author-profiles/8?populate=author');
    expect(orphan.data.attributes.author).to.deep.equal({ data: null });
    const profile = await get('/api/author-profiles/1?populate[author][fields][0]=name&fields[0]=handle');
    expect(profile.data.attributes.author).to.deep.equal({ data: { id: 1, attributes: { name: 'Alice Martin' } } });
    const tag = await get('/api/tags/1?populate[articles][fields][0]=title&fields[0]=name');
    expect(ids(tag.data.attributes.articles)).to.deep.equal([22]);
  });

  it('keeps the stored order of to-many relations, and sorts, filters and windows inside populate', async () => {
    const stored = await get('/api/events/1?populate[speakers][fields][0]=name&fields[0]=name');
    expect(ids(stored.data.attributes.speakers)).to.deep.equal([1, 4]);
    const sorted = await get('/api/articles/1?populate[tags][sort]=name%3Adesc&fields[0]=title');
    expect(ids(sorted.data.attributes.tags)).to.deep.equal([2, 6]);
    // the attribute a populate sorts on is selected with the fields it asks for, as Strapi does
    const sortedWithFields = await get(
      '/api/articles/1?populate[tags][sort]=name%3Adesc&populate[tags][fields][0]=slug&fields[0]=title',
    );
    expect(sortedWithFields.data.attributes.tags.data).to.deep.equal([
      { id: 2, attributes: { name: 'node.js', slug: 'node-js' } },
      { id: 6, attributes: { name: 'Paris', slug: 'paris' } },
    ]);
    const links = await get(
      '/api/articles/1?fields[0]=title&populate[links][sort]=url:desc&populate[links][fields][0]=label',
    );
    expect(links.data.attributes.links.map((link: Record<string, unknown>) => Object.keys(link))).to.deep.equal([
      ['id', 'url', 'label'],
      ['id', 'url', 'label'],
    ]);
    const filtered = await get(
      '/api/articles?populate[tags][filters][id][$eq]=6&populate[tags][fields][0]=name&fields[0]=title&pagination[pageSize]=2',
    );
    expect(
      filtered.data.map((entry: { attributes: { tags: { data: unknown[] } } }) => entry.attributes.tags.data),
    ).to.deep.equal([[{ id: 6, attributes: { name: 'Paris' } }], []]);
  });

  it('populates dynamic zones with [populate]=* and with the on fragment form', async () => {
    const zone = await get('/api/articles/3?populate[blocks][populate]=*&fields[0]=title');
    expect(zone.data.attributes.blocks[0]).to.deep.equal({
      id: 2,
      __component: 'blocks.quote',
      text: 'Quote in article 3',
      attribution: null,
    });
    const on = await get('/api/articles/3?fields[0]=title&populate[blocks][on][blocks.quote][fields][0]=text');
    expect(on.data.attributes.blocks[0]).to.deep.equal({
      id: 2,
      __component: 'blocks.quote',
      text: 'Quote in article 3',
    });
    const home = await get(
      '/api/homepage?populate[sections][populate]=*&populate[featuredArticles][fields][0]=title&fields[0]=title',
    );
    expect(home.data.attributes.sections.map((s: { id: number }) => s.id)).to.deep.equal([31, 22, 11]);
    expect(ids(home.data.attributes.featuredArticles)).to.deep.equal([1, 3, 7]);
  });

  it('populates localizations (same locale group, other entries)', async () => {
    const { data } = await get(
      '/api/articles/1?populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale&fields[0]=title',
    );
    expect(data.attributes.localizations).to.deep.equal({
      data: [{ id: 41, attributes: { title: 'Bien démarrer avec Strapi', locale: 'fr' } }],
    });
  });

  it('splits list items on commas; `*` among names populates nothing, a dotted path stops at it (Strapi 4.26)', async () => {
    const populated = async (query: string) =>
      Object.keys((await get(`/api/articles/1?fields[0]=title&${query}`)).data.attributes).sort();
    expect(await populated('populate[0]=author,tags')).to.deep.equal(['author', 'tags', 'title']);
    expect(await populated('populate[0]=author&populate[1]=%20tags')).to.deep.equal(['author', 'tags', 'title']);
    expect(await populated('populate=*,author')).to.deep.equal(['author', 'title']);
    expect(await populated('populate=author,*')).to.deep.equal(['author', 'title']);
    const author = (await get('/api/articles/1?fields[0]=title&populate=author.*')).data.attributes.author;
    expect(Object.keys(author.data.attributes)).to.not.include.members(['profile', 'articles', 'address']);
  });

  it('a dynamic zone’s fields, filters and sort are checked against the zone itself (only id), as Strapi 4.26', async () => {
    const blocks = async (query: string) =>
      (await get(`/api/articles/3?fields[0]=title&${query}`)).data.attributes.blocks as Record<string, unknown>[];
    expect(await blocks('populate[blocks][fields][0]=id')).to.deep.equal([
      { id: 2, __component: 'blocks.quote' },
      { id: 3, __component: 'blocks.rich-text' },
      { id: 1, __component: 'blocks.cta' },
    ]);
    expect(await blocks('populate[blocks][filters][id]=2&populate[blocks][fields][0]=id')).to.deep.equal([
      { id: 2, __component: 'blocks.quote' },
    ]);
    const all = await blocks('populate[blocks]=*');
    expect((await blocks('populate[blocks][filters][id][$gt]=1')).map((b) => b.__component)).to.deep.equal([
      'blocks.quote',
      'blocks.rich-text',
    ]);
    // sort is checked, not applied; `*` keeps every field
    expect(await blocks('populate[blocks][sort]=id:desc')).to.deep.equal(all);
    expect(await blocks('populate[blocks][fields][0]=*')).to.deep.equal(all);
    for (const query of [
      'populate[blocks][fields][0]=text',
      'populate[blocks][filters][text]=x',
      'populate[blocks][sort]=text',
    ]) {
      const res = await request(service.app).get(`/api/articles/3?${query}`);
      expect([res.status, res.body.error?.message], query).to.deep.equal([400, 'Invalid parameter text']);
    }
  });

  it('`pagination` on a to-one relation is checked and ignored, as Strapi 4.26 answers', async () => {
    const { data } = await get(
      '/api/articles?populate[author][pagination][page]=2&populate[author][fields][0]=name&fields[0]=title&pagination[pageSize]=1',
    );
    expect(data).to.deep.equal([
      {
        id: 1,
        attributes: {
          title: 'Getting Started with Strapi',
          author: { data: { id: 1, attributes: { name: 'Alice Martin' } } },
        },
      },
    ]);
    const bad = await request(service.app).get('/api/articles?populate[author][pagination][page]=x');
    expect(bad.status).to.equal(400);
  });

  it('rejects malformed populate values with a 400', async () => {
    for (const query of [
      // Strapi answers a whole `*` item of the list form with a 500
      'populate[0]=*',
      'populate[0]=author&populate[1]=*',
      'populate[author][populate][0]=*',
      'populate[author][fields][0]=nope',
      'populate[author][publicationState]=draft',
      'populate[tags][pagination][page]=x',
      'populate[tags][limit]=x',
    ]) {
      const res = await request(service.app).get(`/api/articles/1?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.name, query).to.equal('ValidationError');
    }
  });
  describe('components, dynamic-zone fragments and counts (answers checked against Strapi 4.26)', () => {
    const attributesOf = async (path: string): Promise<Record<string, unknown>[]> =>
      ((await get(path)).data as { id: number; attributes: Record<string, unknown> }[]).map((entry) => ({
        id: entry.id,
        ...entry.attributes,
      }));

    it('applies filters to a repeatable component and to a single one (null when it does not match)', async () => {
      const links = await attributesOf(
        '/api/articles?fields[0]=title&populate[links][filters][label][$contains]=2&populate[links][fields][0]=label&pagination[pageSize]=4',
      );
      expect(links.map((entry) => entry.links)).to.deep.equal([
        [{ id: 2, label: 'Link 2 of 1' }],
        [],
        [],
        [{ id: 5, label: 'Link 2 of 4' }],
      ]);
      const seo = await attributesOf(
        '/api/articles?fields[0]=title&populate[seo][fields][0]=metaTitle&populate[seo][filters][metaTitle][$contains]=Strapi&pagination[pageSize]=3',
      );
      expect(seo.map((entry) => entry.seo)).to.deep.equal([
        { id: 1, metaTitle: 'Getting Started with Strapi | Pub' },
        null,
        null,
      ]);
    });

    it('filters nested components, components reached through a relation, and sorts components', async () => {
      const nested = await attributesOf(
        '/api/articles?fields[0]=title&populate[seo][fields][0]=metaTitle&populate[seo][populate][metaSocial][filters][network][$eq]=Twitter&pagination[pageSize]=3',
      );
      expect(nested.map((entry) => entry.seo)).to.deep.equal([
        {
          id: 1,
          metaTitle: 'Getting Started with Strapi | Pub',
          metaSocial: [{ id: 1, network: 'Twitter', title: 'tw 1', description: null }],
        },
        null,
        { id: 2, metaTitle: '100% Organic Growth | Pub', metaSocial: [] },
      ]);
      const throughRelation = await get(
        '/api/authors/1?fields[0]=name&populate[articles][fields][0]=title&populate[articles][populate][seo][filters][noIndex]=true',
      );
      for (const article of throughRelation.data.attributes.articles.data)
        expect(article.attributes.seo).to.equal(null);
      const sorted = await attributesOf(
        '/api/articles?fields[0]=title&populate[links][sort]=label:desc&populate[links][fields][0]=label&pagination[pageSize]=4',
      );
      expect(sorted.map((entry) => entry.links)).to.deep.equal([
        [
          { id: 2, label: 'Link 2 of 1' },
          { id: 1, label: 'Link 1 of 1' },
        ],
        [],
        [{ id: 3, label: 'Link 1 of 3' }],
        [
          { id: 5, label: 'Link 2 of 4' },
          { id: 4, label: 'Link 1 of 4' },
        ],
      ]);
    });

    it('answers only the components listed in dynamic-zone fragments, each shaped by its fragment', async () => {
      const blocks = await attributesOf(
        '/api/articles?fields[0]=title&populate[blocks][on][blocks.quote][fields][0]=text&populate[blocks][on][blocks.cta][filters][label][$eq]=Subscribe&pagination[pageSize]=4',
      );
      expect(blocks.map((entry) => entry.blocks)).to.deep.equal([
        [{ id: 1, __component: 'blocks.quote', text: 'Quote in article 1' }],
        [],
        [
          { id: 2, __component: 'blocks.quote', text: 'Quote in article 3' },
          { id: 1, __component: 'blocks.cta', label: 'Subscribe', url: '/subscribe', style: 'primary' },
        ],
        [],
      ]);
      const only = await get('/api/articles/3?fields[0]=title&populate[blocks][on][blocks.quote]=true');
      expect(only.data.attributes.blocks).to.deep.equal([
        { id: 2, __component: 'blocks.quote', text: 'Quote in article 3', attribution: null },
      ]);
      const bad = await request(service.app).get(
        '/api/articles/3?populate[blocks][on][blocks.quote][filters][author][$eq]=x',
      );
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include({ name: 'ValidationError', message: 'Invalid parameter author' });
      // a component of the app the zone does not list matches no item, and so does one the app
      // lacks, unless its fragment asks for fields, filters or sort: a 400 (Strapi fails with a 500)
      const other = await get('/api/articles/3?fields[0]=title&populate[blocks][on][shared.seo][fields][0]=metaTitle');
      expect(other.data.attributes.blocks).to.deep.equal([]);
      for (const fragment of ['=*', '=true', '=false', '[populate]=*', '[count]=true']) {
        const ignored = await get(
          `/api/articles/3?fields[0]=title&populate[blocks][on][nope.nope]${fragment}&populate[blocks][on][blocks.cta]=*`,
        );
        expect(ignored.data.attributes.blocks, fragment).to.deep.equal([
          { id: 1, __component: 'blocks.cta', label: 'Subscribe', url: '/subscribe', style: 'primary' },
        ]);
      }
      for (const fragment of ['[fields][0]=x', '[filters][id]=1', '[sort]=id']) {
        const unknown = await request(service.app).get(`/api/articles/3?populate[blocks][on][nope.nope]${fragment}`);
        expect([unknown.status, unknown.body.error?.name], fragment).to.deep.equal([400, 'ValidationError']);
      }
    });

    it("start and limit of components apply to an entry's components (a dynamic zone: to each component's own), as a Strapi 4.26 findOne answers", async () => {
      const itemsOf = async (path: string, attribute: string) => {
        const value = ((await get(path)).data as { attributes: Record<string, unknown> }).attributes[attribute];
        if (value === null || !Array.isArray(value)) return value;
        return value.map((item: { id: number; __component?: string }) => `${item.__component ?? ''}${item.id}`);
      };
      const links = (query: string) => itemsOf(`/api/articles/4?fields[0]=title&${query}`, 'links');
      expect(await links('populate[links]=*')).to.deep.equal(['4', '5']);
      expect(await links('populate[links][start]=1')).to.deep.equal(['5']);
      expect(await links('populate[links][limit]=1')).to.deep.equal(['4']);
      expect(await links('populate[links][limit]=1&populate[links][sort]=id:desc')).to.deep.equal(['5']);
      expect(await links('populate[links][limit]=1&populate[links][filters][id][$gt]=4')).to.deep.equal(['5']);
      expect(await links('populate[links][limit]=-1')).to.deep.equal(['4', '5']);
      expect(await links('populate[links][limit]=0')).to.deep.equal(['4', '5']);
      expect((await get('/api/articles/4?fields[0]=title&populate[links][start]=1&populate[links][count]=true')).data)
        .to.have.nested.property('attributes.links')
        .that.deep.equals({ count: 2 });
      const mixed = await request(service.app).get(
        '/api/articles/4?fields[0]=title&populate[links][page]=1&populate[links][limit]=1',
      );
      expect(mixed.body.error).to.deep.include({ status: 400, name: 'PaginationError' });
      expect(await itemsOf('/api/articles/1?fields[0]=title&populate[seo][start]=1', 'seo')).to.equal(null);
      const blocks = (query: string) => itemsOf(`/api/articles/3?fields[0]=title&${query}`, 'blocks');
      expect(await blocks('populate[blocks]=*')).to.deep.equal(['blocks.quote2', 'blocks.rich-text3', 'blocks.cta1']);
      expect(await blocks('populate[blocks][start]=1')).to.deep.equal([]);
      expect(await blocks('populate[blocks][limit]=1')).to.deep.equal([
        'blocks.quote2',
        'blocks.rich-text3',
        'blocks.cta1',
      ]);
    });

    it('answers count=true of relations and components as Strapi does', async () => {
      const counts = await attributesOf(
        '/api/articles?fields[0]=title&populate[seo][count]=true&populate[links][count]=true&populate[author][count]=true&populate[tags][count]=true&pagination[pageSize]=3',
      );
      expect(counts.map(({ seo, links, author, tags }) => ({ seo, links, author, tags }))).to.deep.equal([
        {
          seo: { count: 1 },
          links: { count: 2 },
          author: { data: { attributes: { count: 1 } } },
          tags: { data: { attributes: { count: 2 } } },
        },
        {
          seo: { count: 0 },
          links: { count: 0 },
          author: { data: { attributes: { count: 1 } } },
          tags: { data: { attributes: { count: 2 } } },
        },
        {
          seo: { count: 1 },
          links: { count: 1 },
          author: { data: { attributes: { count: 1 } } },
          tags: { data: { attributes: { count: 0 } } },
        },
      ]);
      // filters apply, the window does not; drafts count only with preview
      const filtered = await attributesOf(
        '/api/authors?fields[0]=name&populate[articles][count]=true&populate[articles][filters][title][$contains]=a&populate[articles][limit]=1&pagination[pageSize]=3',
      );
      expect(filtered.map((entry) => entry.articles)).to.deep.equal(
        [6, 5, 5].map((count) => ({ data: { attributes: { count } } })),
      );
      const preview = await attributesOf(
        '/api/categories?fields[0]=name&populate[articles][count]=true&populate[articles][publicationState]=preview',
      );
      expect(
        preview.map((entry) => (entry.articles as { data: { attributes: { count: number } } }).data.attributes.count),
      ).to.deep.equal([9, 10, 9, 7, 9, 0]);
    });
  });
});
