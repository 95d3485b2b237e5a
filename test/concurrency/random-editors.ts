// Random concurrent editors on the relations of the demo app (articles, authors, author-profiles,
// categories, tags), and the invariants that must hold once they are done: both sides of every
// relation agree, a oneToOne target has one holder, no stored id points at a missing entry, unique
// values stay unique, every acknowledged create is there unless an acknowledged delete removed it,
// and nothing a refused request tried to create exists.
import type request from 'supertest';
import { Random } from '../../scripts/fuzz/random.js';
import type { Cluster, RawDoc } from './helpers.js';

type Kind = 'articles' | 'authors' | 'author-profiles' | 'categories' | 'tags';
const KINDS: readonly Kind[] = ['articles', 'authors', 'author-profiles', 'categories', 'tags'];

/** What a run did, for the checks and for a failure's message. */
export interface EditorsRun {
  created: Record<Kind, Set<number>>;
  deleted: Record<Kind, Set<number>>;
  /** answers other than the expected ones (2xx, 400 refusals, 404 of an entry deleted meanwhile) */
  unexpected: string[];
  statuses: Record<number, number>;
}

const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

/** One random request: a create, an update of relations from either side, or a delete. */
function randomRequest(
  random: Random,
  live: Record<Kind, number[]>,
): { kind: Kind; method: string; path: string; body?: object } {
  const some = (kind: Kind, max = 3) => random.some(live[kind], max);
  const one = (kind: Kind) => (live[kind].length > 0 ? random.pick(live[kind]) : undefined);
  const toOne = (kind: Kind) => (random.chance(0.2) ? null : (one(kind) ?? null));
  const toMany = (kind: Kind, anchors: number[]) => {
    const ids = some(kind);
    switch (random.int(0, 3)) {
      case 0:
        return ids;
      case 1:
        return { set: ids };
      case 2:
        return { disconnect: ids };
      default:
        return {
          connect: ids.map((id) => {
            const positions: object[] = [{ start: true }, { end: true }];
            if (anchors.length > 0) positions.push({ before: random.pick(anchors) }, { after: random.pick(anchors) });
            return random.chance(0.2) ? { id } : { id, position: random.pick(positions) };
          }),
        };
    }
  };
  const roll = random.next();
  if (roll < 0.12) {
    const kind = random.pick(KINDS);
    const name = `${random.pick(NAMES)}-${random.int(1, 3)}`;
    const data = {
      articles: {
        title: `article ${name}`,
        author: toOne('authors'),
        category: toOne('categories'),
        tags: some('tags'),
      },
      authors: { name: `author ${name}`, profile: toOne('author-profiles') },
      'author-profiles': { handle: name, author: toOne('authors') },
      categories: { name, articles: some('articles') },
      tags: { name: `tag ${name}`, articles: some('articles') },
    }[kind];
    return { kind, method: 'POST', path: `/api/${kind}`, body: { data } };
  }
  if (roll < 0.15) {
    const source = one('articles') ?? 1;
    const locale = random.pick(['fr', 'de']);
    return {
      kind: 'articles',
      method: 'POST',
      path: `/api/articles/${source}/localizations`,
      body: { locale, title: `${locale} ${source}` },
    };
  }
  if (roll < 0.22) {
    const kind = random.pick(KINDS);
    const id = one(kind) ?? 1;
    return { kind, method: 'DELETE', path: `/api/${kind}/${id}` };
  }
  const kind = random.pick(KINDS);
  const id = one(kind) ?? 1;
  const data = {
    articles: random.pick([
      { author: toOne('authors') },
      { category: toOne('categories') },
      { tags: toMany('tags', live.tags) },
      { reviewer: toOne('authors'), tags: toMany('tags', live.tags) },
      { publishedAt: random.chance(0.5) ? null : new Date().toISOString(), author: toOne('authors') },
      {
        links: Array.from({ length: random.int(0, 3) }, (_, i) => ({ label: `link ${i}` })),
        seo: { metaTitle: 'seo' },
      },
    ]),
    authors: random.pick([{ profile: toOne('author-profiles') }, { articles: toMany('articles', live.articles) }]),
    'author-profiles': { author: toOne('authors') },
    categories: random.pick([
      { articles: toMany('articles', live.articles) },
      { name: `${random.pick(NAMES)}-${random.int(1, 3)}` },
    ]),
    tags: { articles: toMany('articles', live.articles) },
  }[kind];
  return { kind, method: 'PUT', path: `/api/${kind}/${id}`, body: { data } };
}

/**
 * Runs `operations` random requests, `concurrency` at a time, spread over the cluster's instances.
 * Articles are written in the default locale and left as drafts or published at random.
 */
export async function runEditors(
  cluster: Cluster,
  options: { seed: number; operations: number; concurrency: number },
): Promise<EditorsRun> {
  const random = new Random(options.seed);
  const run: EditorsRun = {
    created: Object.fromEntries(KINDS.map((k) => [k, new Set<number>()])) as EditorsRun['created'],
    deleted: Object.fromEntries(KINDS.map((k) => [k, new Set<number>()])) as EditorsRun['deleted'],
    unexpected: [],
    statuses: {},
  };
  const live = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  let sent = 0;
  const worker = async (w: number) => {
    while (sent < options.operations) {
      const n = sent++;
      const op = randomRequest(random, live);
      let res: request.Response;
      if (op.method === 'POST') res = await cluster.post(n, op.path, op.body);
      else if (op.method === 'PUT') res = await cluster.put(n, op.path, op.body);
      else res = await cluster.del(n, op.path);
      run.statuses[res.status] = (run.statuses[res.status] ?? 0) + 1;
      const shaped = res.status < 300 || (res.body?.data === null && typeof res.body?.error?.message === 'string');
      if (!shaped || ![200, 400, 404].includes(res.status))
        run.unexpected.push(
          `worker ${w} ${op.method} ${op.path} ${JSON.stringify(op.body)} -> ${res.status} ${res.text.slice(0, 300)}`,
        );
      if (process.env.EDITORS_LOG && res.status !== 200)
        console.log(res.status, op.method, op.path, JSON.stringify(op.body), res.body?.error?.message);
      if (res.status !== 200) continue;
      // the localization route answers the entry itself, not in `data`
      const id = ((res.body as { data?: { id: number } }).data ?? (res.body as { id: number })).id;
      if (op.method === 'POST') {
        run.created[op.kind].add(id);
        live[op.kind].push(id);
      } else if (op.method === 'DELETE') {
        run.deleted[op.kind].add(id);
        live[op.kind] = live[op.kind].filter((other) => other !== id);
      }
    }
  };
  // every worker ends before the run does, so a failing one never leaves requests running past it
  const ends = await Promise.allSettled(Array.from({ length: options.concurrency }, (_, w) => worker(w)));
  for (const end of ends) if (end.status === 'rejected') throw end.reason;
  return run;
}

interface Entry {
  id: number;
  attributes: Record<string, unknown>;
}
/** The ids a populated relation holds, to-one or to-many. */
const idsOf = (relation: unknown): number[] => {
  const data = (relation as { data?: { id: number } | { id: number }[] | null } | undefined)?.data;
  if (!data) return [];
  return (Array.isArray(data) ? data : [data]).map((entry) => entry.id);
};

/** Every entry of a kind as REST answers it (drafts and every locale), its relations' ids populated. */
async function readAll(cluster: Cluster, kind: Kind, relations: string[]): Promise<Map<number, Entry>> {
  const populate = relations
    .map((r) => `populate[${r}][fields][0]=id&populate[${r}][publicationState]=preview`)
    .join('&');
  const res = await cluster.get(
    `/api/${kind}?publicationState=preview&locale=all&pagination[pageSize]=10000&${populate}`,
  );
  if (res.status !== 200) throw new Error(`read ${kind}: ${res.status} ${res.text}`);
  const body = res.body as { data: Entry[]; meta: { pagination: { total: number } } };
  if (body.meta.pagination.total !== body.data.length)
    throw new Error(`${kind}: total ${body.meta.pagination.total}, ${body.data.length} entries`);
  return new Map(body.data.map((entry) => [entry.id, entry]));
}

const duplicates = <T>(values: T[]): T[] => values.filter((value, i) => values.indexOf(value) !== i);

/** The invariants, as a list of violations (empty when all hold). */
export async function checkInvariants(cluster: Cluster, run: EditorsRun): Promise<string[]> {
  const problems: string[] = [];
  const articles = await readAll(cluster, 'articles', ['author', 'category', 'tags', 'reviewer', 'localizations']);
  const authors = await readAll(cluster, 'authors', ['articles', 'profile']);
  const profiles = await readAll(cluster, 'author-profiles', ['author']);
  const categories = await readAll(cluster, 'categories', ['articles']);
  const tags = await readAll(cluster, 'tags', ['articles']);
  const all: Record<Kind, Map<number, Entry>> = {
    articles,
    authors,
    'author-profiles': profiles,
    categories,
    tags,
  };

  for (const kind of KINDS) {
    for (const id of run.created[kind])
      if (!run.deleted[kind].has(id) && !all[kind].has(id))
        problems.push(`${kind} ${id}: created (200), never deleted, missing`);
    for (const id of all[kind].keys())
      if (!run.created[kind].has(id)) problems.push(`${kind} ${id}: exists, but no create of it was acknowledged`);
    for (const id of run.deleted[kind])
      if (all[kind].has(id)) problems.push(`${kind} ${id}: deleted (200), still there`);
  }

  const agree = (
    owner: string,
    owners: Map<number, Entry>,
    field: string,
    inverse: string,
    targets: Map<number, Entry>,
    inverseField: string,
    many: boolean,
  ) => {
    for (const [id, entry] of owners) {
      const linked = idsOf(entry.attributes[field]);
      if (!many && linked.length > 1) problems.push(`${owner} ${id}.${field} holds ${linked.length} entries`);
      if (duplicates(linked).length > 0) problems.push(`${owner} ${id}.${field} lists ${duplicates(linked)} twice`);
      for (const target of linked) {
        const back = targets.get(target);
        if (!back) problems.push(`${owner} ${id}.${field} -> ${inverse} ${target}, which is not there`);
        else {
          if (!idsOf(back.attributes[inverseField]).includes(id))
            problems.push(`${owner} ${id}.${field} -> ${target}, but ${inverse} ${target}.${inverseField} lacks ${id}`);
        }
      }
    }
  };
  agree('article', articles, 'author', 'author', authors, 'articles', false);
  agree('author', authors, 'articles', 'article', articles, 'author', true);
  agree('article', articles, 'category', 'category', categories, 'articles', false);
  agree('category', categories, 'articles', 'article', articles, 'category', true);
  agree('article', articles, 'tags', 'tag', tags, 'articles', true);
  agree('tag', tags, 'articles', 'article', articles, 'tags', true);
  agree('article', articles, 'localizations', 'article', articles, 'localizations', true);
  agree('author', authors, 'profile', 'author-profile', profiles, 'author', false);
  agree('author-profile', profiles, 'author', 'author', authors, 'profile', false);
  for (const [id, article] of articles) {
    const [reviewer] = idsOf(article.attributes.reviewer);
    if (reviewer !== undefined && !authors.has(reviewer))
      problems.push(`article ${id}.reviewer -> missing author ${reviewer}`);
  }

  const unique = (kind: string, values: unknown[]) => {
    const seen = values.filter((v, i) => values.indexOf(v) !== i);
    if (seen.length > 0) problems.push(`${kind}: ${JSON.stringify(seen)} held twice`);
  };
  unique(
    'category name',
    [...categories.values()].map((c) => c.attributes.name),
  );
  unique(
    'author-profile handle',
    [...profiles.values()].map((p) => p.attributes.handle),
  );

  problems.push(...(await danglingInStorage(cluster, all)));
  return problems;
}

/** Stored ids (storage layout) that point at no entry: what REST's populate would silently drop. */
async function danglingInStorage(cluster: Cluster, all: Record<Kind, Map<number, Entry>>): Promise<string[]> {
  const problems: string[] = [];
  const check = (collection: string, docs: RawDoc[], field: string, targets: Map<number, Entry>) => {
    for (const doc of docs) {
      const value = doc[field];
      const ids = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
      for (const id of ids)
        if (!targets.has(Number(id))) problems.push(`stored ${collection} ${doc._id}.${field} -> ${id}, missing`);
    }
  };
  const articles = await cluster.docs('articles');
  const links = articles.flatMap((doc) =>
    (Array.isArray(doc.links) ? (doc.links as { id: unknown }[]) : []).map((link) => link.id),
  );
  for (const id of new Set(duplicates(links)))
    problems.push(`stored articles: component shared.link ${String(id)} held twice`);
  const groups = articles.map((doc) => `${String(doc.localeGroup)}/${String(doc.locale)}`);
  for (const group of new Set(duplicates(groups)))
    problems.push(`stored articles: two entries of localization group/locale ${group}`);
  check('articles', articles, 'author', all.authors);
  check('articles', articles, 'category', all.categories);
  check('articles', articles, 'tags', all.tags);
  check('articles', articles, 'reviewer', all.authors);
  check('authors', await cluster.docs('authors'), 'profile', all['author-profiles']);
  return problems;
}
