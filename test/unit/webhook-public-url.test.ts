// In production a webhook must lead to the public internet (Strapi's `is-public-url` test): the
// machine itself and private networks are refused, by address or by the name's addresses.
import { expect } from 'chai';
import { isPublicUrl } from '../../src/webhooks/public-url.js';

describe('webhook urls in production', () => {
  it('refuses loopback, private, link-local and unresolvable hosts', async () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://[::ffff:10.1.2.3]/hook',
      'http://10.0.0.8/hook',
      'http://172.20.1.1/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/hook',
      'http://0.0.0.0/hook',
      'http://no-such-host.invalid/hook',
      'not a url',
    ])
      expect(await isPublicUrl(url), url).to.equal(false);
  });

  it('accepts public addresses', async () => {
    for (const url of ['https://93.184.215.14/hook', 'http://[2606:4700::1111]/hook', 'https://8.8.8.8:8443/x'])
      expect(await isPublicUrl(url), url).to.equal(true);
  });
});
