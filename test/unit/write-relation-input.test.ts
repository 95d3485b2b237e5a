import { expect } from 'chai';
import { applyRelationInput, parseRelationInput } from '../../src/write/relation-input.js';

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
      input: { kind: 'patch', connect: [{ id: 4 }, { id: 5 }], disconnect: [2] },
    });
    expect(parseRelationInput({ set: [{ id: 1 }] }, true, ['tags'])).to.deep.equal({
      ok: true,
      input: { kind: 'set', ids: [1] },
    });
    expect(parseRelationInput({ connect: [7] }, false, ['author'])).to.deep.equal({
      ok: true,
      input: { kind: 'patch', connect: [{ id: 7 }], disconnect: [] },
    });
    expect(parseRelationInput({ connect: [{ id: 7, position: { before: 2 } }] }, true, ['tags'])).to.deep.equal({
      ok: true,
      input: { kind: 'patch', connect: [{ id: 7, position: { before: 2 } }], disconnect: [] },
    });
    expect(parseRelationInput({ connect: [{ id: 7, position: { sideways: 1 } }] }, true, ['tags']).ok).to.equal(false);
  });

  it('rejects bad input', () => {
    for (const bad of ['x', -1, 0, { id: 'a' }, [1, 'b'], true, { connect: 'x' }]) {
      expect(parseRelationInput(bad, true, ['tags']).ok, JSON.stringify(bad)).to.equal(false);
    }
    expect(parseRelationInput([1, 2], false, ['author']).ok).to.equal(false);
  });

  it('applies patches in connection order, honouring positions', () => {
    expect(
      applyRelationInput([1, 2, 3], { kind: 'patch', connect: [{ id: 5 }, { id: 1 }], disconnect: [2] }),
    ).to.deep.equal([3, 5, 1]);
    expect(applyRelationInput([1, 2], { kind: 'set', ids: [9] })).to.deep.equal([9]);
    expect(
      applyRelationInput([1, 2, 3], {
        kind: 'patch',
        connect: [
          { id: 4, position: { before: 2 } },
          { id: 5, position: { start: true } },
          { id: 3, position: { after: 5 } },
        ],
        disconnect: [],
      }),
    ).to.deep.equal([5, 3, 1, 4, 2]);
    expect(
      applyRelationInput([1], { kind: 'patch', connect: [{ id: 4, position: { after: 9 } }], disconnect: [] }),
    ).to.equal(null);
  });
});
