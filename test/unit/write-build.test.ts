import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { ContentType } from '../../src/content-types/index.js';
import { buildWrite } from '../../src/write/build.js';
import { publicationRegistry, SEED_FILE } from '../helpers/fixtures.js';

const registry = publicationRegistry();
const article = registry.contentType('api::article.article') as ContentType;
const note = registry.contentType('api::note.note') as ContentType;
const author = registry.contentType('api::author.author') as ContentType;

interface SeedOp {
  contentType?: string;
  body?: Record<string, unknown>;
  localizationOf?: number;
  updateId?: number;
  single?: boolean;
}
const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as { operations: SeedOp[] };

describe('write: building a write plan', () => {
  it('accepts every create body of the seed', () => {
    for (const op of seed.operations) {
      if (!op.contentType || !op.body || op.updateId || op.localizationOf) continue;
      const ct = registry.byPluralName(op.contentType) ?? registry.bySingularName(op.contentType);
      if (!ct) continue;
      const plan = buildWrite(registry, ct, op.body, { mode: 'create', existing: null, isDraft: false });
      expect(plan.issues, `${op.contentType} ${JSON.stringify(op.body).slice(0, 60)}`).to.deep.equal([]);
    }
  });

  it('lists every problem with its path, nothing stored for unknown keys', () => {
    const plan = buildWrite(
      registry,
      article,
      {
        kind: 'gossip',
        readingTime: -1,
        contactEmail: 'x',
        unknownKey: 1,
        seo: { metaSocial: [{ network: 'Myspace' }] },
        links: [{}],
        blocks: [{ __component: 'shared.link' }, { text: 'no kind' }],
      },
      { mode: 'create', existing: null, isDraft: false },
    );
    expect(plan.issues.map((i) => i.path.join('.'))).to.deep.equal([
      'title',
      'kind',
      'readingTime',
      'contactEmail',
      'seo.metaTitle',
      'seo.metaSocial.0.network',
      'links.0.label',
      'blocks.0.__component',
      'blocks.1.__component',
    ]);
    expect(plan.issues[0]?.message).to.equal('title must be defined.');
    expect(plan.issues.slice(-2).map((i) => i.message)).to.deep.equal([
      'blocks[0].__component must be one of the following values: blocks.quote, blocks.rich-text, blocks.cta',
      'blocks[1].__component is a required field',
    ]);
    // the check of the whole entry, reported after the fields' issues
    expect(plan.storeError).to.equal(
      'Cannot build relations store from dynamiczone, component identifier is undefined',
    );
    expect(plan.issues[5]?.message).to.equal(
      'seo.metaSocial[0].network must be one of the following values: Facebook, Twitter, LinkedIn, ',
    );
    expect(plan.set).to.not.have.property('unknownKey');
  });

  it('drafts skip required', () => {
    const plan = buildWrite(registry, article, {}, { mode: 'create', existing: null, isDraft: true });
    expect(plan.issues).to.deep.equal([]);
    expect(plan.set).to.include({ kind: 'news', featured: false });
  });

  it('new components are listed nested first, then in schema and array order', () => {
    const plan = buildWrite(
      registry,
      article,
      {
        title: 't',
        seo: { metaTitle: 'm', metaSocial: [{ network: 'Twitter' }, { network: 'Facebook' }] },
        links: [{ label: 'a' }],
        blocks: [
          { __component: 'blocks.quote', text: 'q' },
          { __component: 'blocks.cta', label: 'c' },
        ],
      },
      { mode: 'create', existing: null, isDraft: false },
    );
    expect(plan.newComponents.map((c) => c.uid)).to.deep.equal([
      'shared.meta-social',
      'shared.meta-social',
      'shared.seo',
      'shared.link',
      'blocks.quote',
      'blocks.cta',
    ]);
    expect(plan.set.blocks).to.deep.equal(
      [
        { id: 0, text: 'q', attribution: undefined, __component: 'blocks.quote' },
        { id: 0, label: 'c', style: 'primary', __component: 'blocks.cta' },
      ].map((b) => JSON.parse(JSON.stringify(b))),
    );
  });

  it('update keeps components that name their id, creates the others, rejects foreign ids', () => {
    const existing = {
      _id: 1,
      seo: { id: 4, metaTitle: 'old', noIndex: true, metaSocial: [] },
      links: [
        { id: 7, label: 'a' },
        { id: 8, label: 'b' },
      ],
    };
    const plan = buildWrite(
      registry,
      article,
      { seo: { id: 4, metaTitle: 'new' }, links: [{ id: 8, url: 'u' }, { label: 'c' }] },
      { mode: 'update', existing, isDraft: false },
    );
    expect(plan.issues).to.deep.equal([]);
    expect(plan.set.seo).to.deep.equal({ id: 4, metaTitle: 'new', noIndex: true, metaSocial: [] });
    expect(plan.set.links).to.deep.equal([
      { id: 8, label: 'b', url: 'u' },
      { id: 0, label: 'c', external: false },
    ]);
    expect(plan.newComponents).to.have.length(1);
    const foreign = buildWrite(
      registry,
      article,
      { seo: { id: 99, metaTitle: 'x' } },
      { mode: 'update', existing, isDraft: false },
    );
    expect(foreign.issues).to.deep.equal([]);
    expect(foreign.componentErrors.map((e) => [e.error.name, e.error.message])).to.deep.equal([
      ['ApplicationError', 'Some of the provided components in seo are not related to the entity'],
    ]);
  });

  it('update validates only the keys sent; null on a required attribute is refused', () => {
    expect(
      buildWrite(registry, note, { score: 2 }, { mode: 'update', existing: { _id: 1, title: 't' }, isDraft: false })
        .issues,
    ).to.deep.equal([]);
    expect(
      buildWrite(registry, note, { title: null }, { mode: 'update', existing: { _id: 1, title: 't' }, isDraft: false })
        .issues[0]?.path,
    ).to.deep.equal(['title']);
  });

  it('relations: owning sides stored, inverse sides planned, targets collected', () => {
    const plan = buildWrite(
      registry,
      article,
      { title: 't', author: 2, tags: { connect: [3], disconnect: [1] } },
      { mode: 'update', existing: { _id: 1, tags: [1, 2] }, isDraft: false },
    );
    expect(plan.set.author).to.equal(2);
    expect(plan.set.tags).to.deep.equal([2, 3]);
    expect([...(plan.targets.get('api::tag.tag') ?? [])]).to.deep.equal([3]);
    const inverse = buildWrite(
      registry,
      author,
      { name: 'n', articles: [1, 2] },
      { mode: 'create', existing: null, isDraft: false },
    );
    expect(inverse.inverse.map((w) => [w.attribute, w.relation.inverse.field])).to.deep.equal([['articles', 'author']]);
    expect(inverse.set).to.not.have.property('articles');
  });
});
