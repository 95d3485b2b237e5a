// `kill -9` of the service (and the embedded engine in it) in a stream of the multi-step writes:
// the first upload (which makes the "API Uploads" folder), an entry created with components and its
// media in one multipart request, a localization's creation, a publish that connects relations, and
// replacements of an image (with formats) by other bytes. After a restart on the same data directory
// every acknowledged write is there, and nothing half-written is visible: no file record without
// its bytes (nor a format without its), no record describing bytes it does not hold, no id of a
// missing entry, file or folder, no two entries of one document in one locale.
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { createServer, type ContentService } from '../../src/app.js';
import { png } from '../helpers/media-app.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { componentSchema, collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';

const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const CLIENTS = 4;
/** the sides of the images uploaded (each gets a thumbnail: formats from 245 px up) */
const SIDES = [250, 280];

type Doc = Record<string, unknown> & { _id: number };

async function writeApp(uploads: string): Promise<string> {
  return writeTempApp({
    api: {
      article: {
        ...collectionTypeSchema('article', 'articles', {
          title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
          cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
          parts: { type: 'component', repeatable: true, component: 'shared.part' },
          tags: { type: 'relation', relation: 'manyToMany', target: TAG, inversedBy: 'articles' },
        }),
        options: { draftAndPublish: true },
        pluginOptions: { i18n: { localized: true } },
      },
      tag: collectionTypeSchema('tag', 'tags', {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: ARTICLE, mappedBy: 'tags' },
      }),
    },
    components: { 'shared.part': componentSchema('shared.part', { text: { type: 'string' } }) },
    config: {
      plugins: {
        i18n: {
          enabled: true,
          config: { defaultLocale: 'en', locales: [{ code: 'en' }, { code: 'fr' }] },
        },
        'users-permissions': { config: { ratelimit: { enabled: false } } },
        upload: { config: { providerOptions: { directory: uploads } } },
      },
      permissions: {
        public: [
          ...['find', 'findOne', 'create', 'update', 'createLocalization'].map((a) => `${ARTICLE}.${a}`),
          ...['find', 'create'].map((a) => `${TAG}.${a}`),
          'plugin::upload.content-api.upload',
        ],
      },
    },
  });
}

/** What the clients were told was done. */
interface Acknowledged {
  tags: number[];
  /** file id → uploaded alone (not with an entry) */
  files: Set<number>;
  /** article id → its title, parts and the cover uploaded with it */
  articles: Map<number, { title: string; parts: string[]; cover: number; tags: number[] }>;
  /** source article id → its French localization's id */
  localizations: Map<number, number>;
  /** article id → the tags its publish connected */
  published: Map<number, number[]>;
  /** how many replacements were answered */
  replaced: number;
}

type Images = Record<number, Buffer>;

/** One client: a loop of multi-step writes until `stop()`; a request cut by the kill is not acknowledged. */
async function client(
  service: ServiceProcess,
  n: number,
  acked: Acknowledged,
  images: Images,
  stop: () => boolean,
): Promise<void> {
  const send = async (method: string, path: string, body: object | FormData): Promise<unknown> => {
    const form = body instanceof FormData;
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: form ? {} : { 'content-type': 'application/json' },
      body: form ? body : JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const image = (i: number) => new Blob([images[SIDES[i % SIDES.length]!]!], { type: 'image/png' });
  const mine = <T>(list: T[]) => list.filter((_, i) => i % CLIENTS === n);
  for (let i = 0; !stop(); i++) {
    try {
      const articles = mine([...acked.articles.keys()]);
      const step = i % 5;
      if (step === 0) {
        const form = new FormData();
        form.append('files', image(i + n), `alone-${n}-${i}.png`);
        const [file] = (await send('POST', '/api/upload', form)) as Array<{ id: number }>;
        acked.files.add(file!.id);
      } else if (step === 1 || articles.length === 0) {
        const article = {
          title: `article ${n}.${i}`,
          parts: [`part ${n}.${i}.a`, `part ${n}.${i}.b`],
          tags: acked.tags.slice(n % 3, (n % 3) + 2),
        };
        const form = new FormData();
        form.append('data', JSON.stringify({ ...article, parts: article.parts.map((text) => ({ text })) }));
        form.append('files.cover', image(i), `cover-${n}-${i}.png`);
        const res = (await send('POST', '/api/articles?populate=cover', form)) as {
          data: { id: number; attributes: { cover: { data: { id: number } } } };
        };
        acked.articles.set(res.data.id, { ...article, cover: res.data.attributes.cover.data.id });
      } else if (step === 2) {
        const source = articles.find((id) => !acked.localizations.has(id));
        if (source === undefined) continue;
        const res = (await send('POST', `/api/articles/${source}/localizations`, {
          locale: 'fr',
          title: `fr ${source}`,
        })) as { id: number };
        acked.localizations.set(source, res.id);
      } else if (step === 3) {
        const article = articles.find((id) => !acked.published.has(id));
        if (article === undefined) continue;
        const connect = acked.tags.slice(-1 - (i % 2));
        await send('PUT', `/api/articles/${article}`, {
          data: { publishedAt: new Date().toISOString(), tags: { connect } },
        });
        acked.published.set(article, connect);
      } else {
        const alone = mine([...acked.files]);
        const file = alone[i % Math.max(alone.length, 1)];
        if (file === undefined) continue;
        const form = new FormData();
        form.append('files', image(i + 1), `again-${n}-${i}.png`);
        await send('POST', `/api/upload?id=${file}`, form);
        acked.replaced++;
      }
    } catch (error) {
      if (stop()) return; // cut by the kill
      throw error;
    }
  }
}

describe('kill -9 of the service in a stream of multi-step writes', function () {
  this.timeout(90_000);
  let uploads: string;
  let dataDir: string;
  let appDir: string;
  let restarted: ContentService | undefined;
  before(async function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
    uploads = mkdtempSync(join(tmpdir(), 'cs-crash2-uploads-'));
    dataDir = mkdtempSync(join(tmpdir(), 'cs-crash2-data-'));
    appDir = await writeApp(uploads);
  });
  after(async () => {
    await restarted?.stop();
    for (const dir of [uploads, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every acknowledged write is there after the restart, and nothing half-written is', async () => {
    const images: Images = {};
    for (const side of SIDES) images[side] = await png(side, side);
    const service = await startServiceProcess(appDir, dataDir);
    const acked: Acknowledged = {
      tags: [],
      files: new Set(),
      articles: new Map(),
      localizations: new Map(),
      published: new Map(),
      replaced: 0,
    };
    for (let t = 0; t < 5; t++) {
      const res = await fetch(`${service.url}/api/tags`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: `tag ${t}` } }),
      });
      acked.tags.push(((await res.json()) as { data: { id: number } }).data.id);
    }
    let killed = false;
    const exited = new Promise((resolve) => service.process.once('exit', resolve));
    const failures: unknown[] = [];
    const clients = Array.from({ length: CLIENTS }, (_, n) =>
      client(service, n, acked, images, () => killed).catch((error: unknown) => void failures.push(error)),
    );
    // killed in the middle of the stream: each kind of write acknowledged, more in flight
    const started = Date.now();
    while (
      (acked.localizations.size < 2 || acked.published.size < 2 || acked.replaced < 2) &&
      failures.length === 0 &&
      Date.now() - started < 40_000
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    killed = true;
    service.process.kill('SIGKILL');
    await Promise.all(clients);
    await exited;
    expect(failures).to.deep.equal([]);
    expect(acked.localizations.size).to.be.at.least(2);
    expect(acked.published.size).to.be.at.least(2);
    expect(acked.replaced).to.be.at.least(2);

    restarted = await createServer({ appDir, config: { database: { dataDir } } });
    const stored = async (uid: string): Promise<Map<number, Doc>> =>
      new Map(
        ((await restarted!.context.models.collection(uid).find({}).toArray()) as unknown as Doc[]).map((d) => [
          d._id,
          d,
        ]),
      );
    const [articles, tags, files, folders] = await Promise.all(
      [ARTICLE, TAG, 'plugin::upload.file', 'plugin::upload.folder'].map(stored),
    );

    // every acknowledged write is there
    for (const id of acked.files) expect(files.has(id), `file ${id}`).to.equal(true);
    for (const [id, article] of acked.articles) {
      const doc = articles.get(id);
      expect(doc, `article ${id}`).to.not.equal(undefined);
      expect(doc).to.include({ title: article.title, cover: article.cover, locale: 'en' });
      expect((doc?.parts as Array<{ text: string }>).map((p) => p.text)).to.deep.equal(article.parts);
      expect(doc?.tags).to.include.members(article.tags);
    }
    for (const [source, id] of acked.localizations) {
      const doc = articles.get(id);
      expect(doc, `localization ${id}`).to.include({ locale: 'fr', title: `fr ${source}` });
      expect(doc?.localeGroup).to.equal(articles.get(source)?.localeGroup);
    }
    for (const [id, connected] of acked.published) {
      expect(articles.get(id)?.publishedAt, `article ${id} published`).to.be.instanceOf(Date);
      expect(articles.get(id)?.tags).to.include.members(connected);
    }

    // the restart finishes the replacements a kill cut after their commit
    const replacing = async () =>
      (await restarted!.context.models.collection('plugin::upload.file').countDocuments({
        __replace: { $exists: true },
      })) as number;
    for (const until = Date.now() + 10_000; (await replacing()) > 0 && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await replacing()).to.equal(0);
    const current = await stored('plugin::upload.file');

    // nothing half-written: every record holds its bytes and formats, which are what it says
    const onDisk = new Set(await readdir(uploads));
    for (const record of current.values()) {
      const name = `${String(record.hash)}${String(record.ext)}`;
      expect(onDisk.has(name), `the bytes of file ${record._id}`).to.equal(true);
      const { width } = await sharp(await readFile(join(uploads, name))).metadata();
      expect(width, `file ${record._id} is the image its record describes`).to.equal(record.width);
      for (const [key, format] of Object.entries((record.formats ?? {}) as Record<string, Doc>))
        expect(onDisk.has(`${String(format.hash)}${String(format.ext)}`), `${key} of file ${record._id}`).to.equal(
          true,
        );
      if (record.folder !== null && record.folder !== undefined)
        expect(folders.has(record.folder as number), `file ${record._id} → folder ${String(record.folder)}`).to.equal(
          true,
        );
    }
    expect([...folders.values()].map((f) => f.name)).to.include('API Uploads');
    // no id of a missing entry; one entry of a document per locale; component ids once
    const componentIds = new Set<number>();
    const documents = new Set<string>();
    for (const doc of articles.values()) {
      if (doc.cover !== null && doc.cover !== undefined)
        expect(current.has(doc.cover as number), `article ${doc._id} → file ${String(doc.cover)}`).to.equal(true);
      for (const tag of (doc.tags ?? []) as number[])
        expect(tags.has(tag), `article ${doc._id} → tag ${tag}`).to.equal(true);
      const document = `${String(doc.localeGroup)}:${String(doc.locale)}`;
      expect(documents.has(document), `one ${document}`).to.equal(false);
      documents.add(document);
      for (const part of (doc.parts ?? []) as Array<{ id: number }>) {
        expect(componentIds.has(part.id), `component ${part.id} once`).to.equal(false);
        componentIds.add(part.id);
      }
    }
    expect(files.size).to.be.greaterThan(0);
  });
});
