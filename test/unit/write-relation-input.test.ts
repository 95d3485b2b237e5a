import { expect } from 'chai';
import {
  applyRelationInput,
  parseRelationInput,
  type ConnectItem,
  type RelationInput,
} from '../../src/write/relation-input.js';

describe('write: relation input', () => {
  it('ids, arrays, null', () => {
    expect(parseRelationInput(3, false, ['author'])).to.deep.equal({ ok: true, input: { kind: 'set', ids: [3] } });
    expect(parseRelationInput('3', false, ['author'])).to.deep.equal({ ok: true, input: { kind: 'set', ids: [3] } });
    expect(parseRelationInput(null, false, ['author'])).to.deep.equal({ ok: true, input: { kind: 'set', ids: [] } });
    expect(parseRelationInput([2, 6, 2], true, ['tags'])).to.deep.equal({
      ok: true,
      input: { kind: 'set', ids: [2, 6] },
    });
  });

  it('connect / disconnect / set with ids or { id } objects', () => {
    expect(parseRelationInput({ connect: [{ id: 4 }, 5], disconnect: [2] }, true, ['tags'])).to.deep.equal({
      ok: true,
      input: { kind: 'patch', connect: [{ id: 4 }, { id: 5 }], disconnect: [2], strict: true, repeated: null },
    });
    expect(parseRelationInput({ set: [{ id: 1 }] }, true, ['tags'])).to.deep.equal({
      ok: true,
      input: { kind: 'set', ids: [1] },
    });
    expect(parseRelationInput({ connect: [7] }, false, ['author'])).to.deep.equal({
      ok: true,
      input: { kind: 'patch', connect: [{ id: 7 }], disconnect: [], strict: true, repeated: null },
    });
    expect(parseRelationInput({ connect: [{ id: 7, position: { before: 2 } }] }, true, ['tags'])).to.deep.equal({
      ok: true,
      input: {
        kind: 'patch',
        // the position as given, for Strapi's messages
        connect: [{ id: 7, position: { before: 2 }, positionText: '{"before":2}' }],
        disconnect: [],
        strict: true,
        repeated: null,
      },
    });
    // a position without a flag Strapi knows is the end, as Strapi reads it
    expect(parseRelationInput({ connect: [{ id: 7, position: { sideways: 1 } }] }, true, ['tags']).ok).to.equal(true);
  });

  it('rejects bad input', () => {
    for (const bad of ['x', -1, 0, { id: 'a' }, [1, 'b'], true, { connect: 'x' }]) {
      expect(parseRelationInput(bad, true, ['tags']).ok, JSON.stringify(bad)).to.equal(false);
    }
    expect(parseRelationInput([1, 2], false, ['author']).ok).to.equal(false);
  });

  it('applies patches in connection order, honouring positions', () => {
    const patch = (connect: ConnectItem[], disconnect: number[] = [], strict = true): RelationInput => ({
      kind: 'patch',
      connect,
      disconnect,
      strict,
      repeated: null,
    });
    expect(applyRelationInput([1, 2, 3], patch([{ id: 5 }, { id: 1 }], [2]), true)).to.deep.equal({
      ok: true,
      ids: [3, 5, 1],
    });
    expect(applyRelationInput([1, 2], { kind: 'set', ids: [9] }, true)).to.deep.equal({ ok: true, ids: [9] });
    expect(
      applyRelationInput(
        [1, 2, 3],
        patch([
          { id: 4, position: { before: 2 } },
          { id: 5, position: { start: true } },
          { id: 3, position: { after: 5 } },
        ]),
        true,
      ),
    ).to.deep.equal({ ok: true, ids: [5, 3, 1, 4, 2] });
    // an anchor connected later in the same request is applied first
    expect(
      applyRelationInput(
        [1, 2],
        patch([
          { id: 5, position: { after: 6 } },
          { id: 6, position: { before: 1 } },
        ]),
        true,
      ),
    ).to.deep.equal({ ok: true, ids: [6, 5, 1, 2] });
    // a to-one keeps the last id connected
    expect(applyRelationInput([1], patch([{ id: 4 }]), false)).to.deep.equal({ ok: true, ids: [4] });
  });

  it("answers Strapi's connect errors, or appends when not strict", () => {
    const patch = (connect: ConnectItem[], strict = true, repeated: number | null = null): RelationInput => ({
      kind: 'patch',
      connect,
      disconnect: [],
      strict,
      repeated,
    });
    expect(applyRelationInput([1], patch([{ id: 4, position: { after: 9 } }]), true)).to.deep.equal({
      ok: false,
      message:
        'There was a problem connecting relation with id 4 at position {"after":9}. The relation with id 9 needs to be connected first.',
    });
    expect(applyRelationInput([1], patch([{ id: 4, position: { after: 9 } }], false), true)).to.deep.equal({
      ok: true,
      ids: [1, 4],
    });
    expect(applyRelationInput([1], patch([{ id: 3 }, { id: 3 }], true, 3), true)).to.deep.equal({
      ok: false,
      message: 'The relation with id 3 is already connected. You cannot connect the same relation twice.',
    });
    expect(
      applyRelationInput(
        [],
        patch([
          { id: 7, position: { after: 8 } },
          { id: 8, position: { before: 7 } },
        ]),
        true,
      ),
    ).to.deep.equal({
      ok: false,
      message:
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
    });
  });

  it('drops exact repeats in connect and remembers an id given twice in different forms', () => {
    const parsed = (value: unknown) => parseRelationInput(value, true, ['tags']);
    expect(parsed({ connect: [3, 3] })).to.deep.equal({
      ok: true,
      input: { kind: 'patch', connect: [{ id: 3 }], disconnect: [], strict: true, repeated: null },
    });
    expect(parsed({ connect: [3, { id: 3 }] })).to.deep.include({ ok: true });
    const input = (parsed({ connect: [3, { id: 3 }], options: { strict: false } }) as { input: RelationInput }).input;
    expect(input).to.deep.include({ strict: false, repeated: 3 });
  });
});
