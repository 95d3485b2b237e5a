// The GraphQL playground works offline: its page and every asset come from this service.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { createTestService, type TestService } from '../helpers/server.js';

describe('browser: GraphQL playground', function () {
  this.timeout(60_000);
  let service: TestService;
  let browser: Browser;
  let url: string;

  before(async () => {
    service = await createTestService();
    url = (await service.start({ port: 0, host: '127.0.0.1' })).url;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  it('renders from local assets only and runs a query', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(url) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    await page.goto(`${url}/graphql`);
    await page.waitForSelector('.playground', { timeout: 30_000 });
    const answer = await page.evaluate(async (endpoint) => {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __type(name: "Tag") { name } tags { data { id } } }' }),
      });
      return res.json();
    }, `${url}/graphql`);
    expect(answer).to.deep.equal({ data: { __type: { name: 'Tag' }, tags: { data: [] } } });
    expect(outside).to.deep.equal([]);
  });
});
