// A front-end on another origin calls the API from a browser: REST, login and GraphQL go through
// when config/middlewares allows its origin, and the browser refuses them when the list leaves it out.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { PROJECT_VARIABLES, typescriptProject, withEnvironment } from '../helpers/strapi-projects.js';
import { writeTempProject } from '../helpers/temp-app.js';

interface Outcome {
  rest: string;
  login: string;
  graphql: string;
}

/**
 * The page's script (plain JavaScript: code compiled by tsx would carry helpers the page lacks):
 * for each call the status and a piece of the answer, or the name of the fetch error.
 */
const PAGE_SCRIPT = `async (base) => {
  const attempt = async (fn) => {
    try {
      return await fn();
    } catch (err) {
      return 'refused: ' + err.name;
    }
  };
  let jwt = '';
  const rest = await attempt(async () => {
    const res = await fetch(base + '/api/articles?fields[0]=title');
    const body = await res.json();
    return res.status + ' ' + body.data.map((a) => a.attributes.title).join(',');
  });
  const login = await attempt(async () => {
    const res = await fetch(base + '/api/auth/local', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: 'browser@example.org', password: 'Password123!' }),
    });
    const body = await res.json();
    jwt = body.jwt || '';
    return res.status + ' ' + (body.user ? body.user.username : '');
  });
  const graphql = await attempt(async () => {
    const headers = { 'Content-Type': 'application/json' };
    if (jwt) headers.Authorization = 'Bearer ' + jwt;
    const res = await fetch(base + '/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: '{ me { username } articles { data { attributes { title } } } }' }),
    });
    const body = await res.json();
    return res.status + ' ' + (body.data.me ? body.data.me.username : 'anonymous') + ' ' + body.data.articles.data.length;
  });
  return { rest, login, graphql };
}`;

async function callsFromPage(browser: Browser, pageUrl: string, api: string): Promise<Outcome> {
  const page = await browser.newPage();
  try {
    await page.goto(pageUrl);
    return (await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(api)})`)) as Outcome;
  } finally {
    await page.close();
  }
}

describe('browser: CORS for a front-end on another origin', function () {
  this.timeout(60_000);
  let browser: Browser;
  let frontEnd: Server;
  let pageUrl: string;
  const services: TestService[] = [];

  /** The TypeScript project with a cors origin list, listening, with one user and one article. */
  async function api(origins: string[]): Promise<string> {
    const appDir = await writeTempProject(typescriptProject({}, origins));
    const service = await withEnvironment('test', PROJECT_VARIABLES, () => createTestService({ appDir }));
    services.push(service);
    const { url } = await service.start({ port: 0, host: '127.0.0.1' });
    const register = await fetch(`${url}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'browser', email: 'browser@example.org', password: 'Password123!' }),
    });
    const { jwt } = (await register.json()) as { jwt: string };
    await fetch(`${url}/api/articles`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ data: { title: 'Cross-origin', slug: 'cross-origin' } }),
    });
    return url;
  }

  before(async () => {
    // the front-end: a page served by another server, on another port (another origin)
    frontEnd = createHttpServer((_req, res) => {
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><title>front-end</title><p>front-end</p>');
    });
    await new Promise<void>((resolve) => frontEnd.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(frontEnd.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const service of services) await service.close();
    await new Promise((resolve) => frontEnd?.close(resolve));
  });

  it('lets an allowed origin call REST, login and GraphQL (preflights included)', async () => {
    const url = await api(['http://localhost:3000', pageUrl]);
    expect(await callsFromPage(browser, `${pageUrl}/`, url)).to.deep.equal({
      rest: '200 Cross-origin',
      login: '200 browser',
      graphql: '200 browser 1',
    });
  });

  it('has the browser refuse every call when the origin list leaves the page out', async () => {
    const url = await api(['http://localhost:3000']);
    expect(await callsFromPage(browser, `${pageUrl}/`, url)).to.deep.equal({
      rest: 'refused: TypeError',
      login: 'refused: TypeError',
      graphql: 'refused: TypeError',
    });
  });
});
