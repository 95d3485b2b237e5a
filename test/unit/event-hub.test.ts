// strapi.eventHub as Strapi v4's: listeners by event name, subscribers of every event, in order.
import { expect } from 'chai';
import { createEventHub } from '../../src/webhooks/event-hub.js';

describe('event hub', () => {
  it('runs the listeners of the event, then the subscribers, each awaited, in order', async () => {
    const heard: string[] = [];
    const forwarded: Array<[string, unknown]> = [];
    const { hub } = createEventHub((event, info) => forwarded.push([event, info]));
    hub.on('entry.create', async (info) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      heard.push(`first ${JSON.stringify(info)}`);
    });
    hub.addListener('entry.create', () => void heard.push('second'));
    hub.subscribe((event) => void heard.push(`subscriber ${event}`));
    hub.on('entry.update', () => void heard.push('not this one'));
    await hub.emit('entry.create', { id: 1 });
    expect(heard).to.deep.equal(['first {"id":1}', 'second', 'subscriber entry.create']);
    expect(forwarded).to.deep.equal([['entry.create', { id: 1 }]]);
  });

  it('off, once, unsubscribe and destroy take listeners away', async () => {
    let count = 0;
    const { hub, hears } = createEventHub(() => {});
    const listener = () => void (count += 1);
    expect(hears('media.create')).to.equal(false);
    const off = hub.on('media.create', listener);
    hub.once('media.create', () => void (count += 10));
    expect(hears('media.create')).to.equal(true);
    await hub.emit('media.create');
    await hub.emit('media.create');
    expect(count).to.equal(12);
    off();
    await hub.emit('media.create');
    expect(count).to.equal(12);
    expect(hears('media.create')).to.equal(false);
    const unsubscribe = hub.subscribe(() => void (count += 100));
    expect(hears('anything')).to.equal(true);
    unsubscribe();
    expect(hears('anything')).to.equal(false);
    hub.on('x', listener);
    hub.destroy();
    await hub.emit('x');
    expect(count).to.equal(12);
  });

  it('rejects emit with what a listener throws, as Strapi does', async () => {
    const { hub } = createEventHub(() => {});
    hub.on('entry.delete', () => {
      throw new Error('listener failed');
    });
    let caught: unknown;
    await hub.emit('entry.delete').catch((err: unknown) => (caught = err));
    expect((caught as Error).message).to.equal('listener failed');
  });
});
