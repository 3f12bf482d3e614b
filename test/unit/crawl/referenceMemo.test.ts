import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReferenceMemo } from '../../../electron/engine/crawl/documents.js';
import type { UrlRow } from '../../../electron/engine/store/catalogue.js';
import { predictedLocalPath } from '../../../electron/engine/url/localPath.js';

function target(id: number, url: string, extra: Partial<UrlRow> = {}): UrlRow {
  return {
    id,
    url,
    site: new URL(url).origin,
    depth: 1,
    state: 'queued',
    requisite: 0,
    type_hint: null,
    redirect_hops: 0,
    http_status: null,
    content_type: null,
    local_path: null,
    redirect_to_id: null,
    skip_reason: null,
    capture: 1,
    ...extra,
  };
}

describe('ReferenceMemo.plannedTarget', () => {
  it('predicts each queued target by its own URL and type hint, asked for in any order', () => {
    const memo = new ReferenceMemo();
    const targets = [target(1, 'http://a.test/about'), target(2, 'http://a.test/style'), target(3, 'http://a.test/data?x=1')];
    const hints = ['html', 'css', null] as const;
    for (let round = 0; round < 2; round++) {
      for (const t of round === 0 ? targets : [...targets].reverse()) {
        for (const hint of hints) {
          assert.equal(memo.plannedTarget(t, hint), predictedLocalPath(t.url, hint), `${t.url} as ${hint}`);
        }
      }
    }
  });

  it('falls back to the row\'s own hint, and points archived and redirected targets at their files', () => {
    const memo = new ReferenceMemo();
    assert.equal(memo.plannedTarget(target(4, 'http://a.test/page', { type_hint: 'html' }), null), predictedLocalPath('http://a.test/page', 'html'));
    assert.equal(memo.plannedTarget(target(5, 'http://a.test/x', { state: 'archived', local_path: 'a.test/x.bin' }), 'html'), 'a.test/x.bin');
    assert.equal(memo.plannedTarget(target(6, 'http://a.test/r', { state: 'redirect', local_path: 'a.test/r/index.html' }), null), 'a.test/r/index.html');
    assert.equal(memo.plannedTarget(target(7, 'http://b.test/', { state: 'skipped', skip_reason: 'scope' }), 'html'), null);
  });
});
