import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCssRefs } from '../../../electron/engine/parse/css.js';

const raws = (css: string): string[] => findCssRefs(css).map((r) => r.raw);

describe('findCssRefs: a quote inside an unquoted url()', () => {
  it('makes a bad url, which browsers ignore, and scanning goes on after its )', () => {
    assert.deepEqual(raws('a{background:url(x"y.png)} b{background:url(ok.png)}'), ['ok.png']);
    assert.deepEqual(raws("a{background:url(x'y.png)} b{background:url(ok.png)}"), ['ok.png']);
    assert.deepEqual(raws('a{background:url(x(y.png)} b{background:url(ok.png)}'), ['ok.png']);
  });
});
