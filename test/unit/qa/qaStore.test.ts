import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { qaScore, worstOfCopies, type QaPageResult } from '../../../shared/qa.js';
import { QaStore } from '../../../electron/engine/qa/qaStore.js';

/** The table as archives analysed before replays were compared have it. */
const OLD_SCHEMA = `CREATE TABLE qa_pages (capture INTEGER NOT NULL, url TEXT NOT NULL, analysed_at TEXT NOT NULL, text_match REAL,
  screenshot_match REAL, missing TEXT NOT NULL, dead_links TEXT NOT NULL, error TEXT, PRIMARY KEY (capture, url))`;

describe('QaStore', () => {
  it('adds the per-copy columns to an archive analysed before, reading its rows as the mirror’s figures', () => {
    const db = new Database(':memory:');
    db.exec(OLD_SCHEMA);
    db.prepare(`INSERT INTO qa_pages VALUES (1, 'http://a.test/', '2026-01-01T00:00:00Z', 0.5, 0.25, '[{"url":"http://a.test/x.css","type":"stylesheet"}]', '[]', NULL)`).run();
    const store = new QaStore(db);
    const before = store.result(1, 'http://a.test/');
    assert.deepEqual(before?.copies, { mirror: { textMatch: 0.5, screenshotMatch: 0.25, missing: [{ url: 'http://a.test/x.css', type: 'stylesheet' }], error: null } });
    assert.equal(before?.reference, 'live');
    store.prepare();
    const columns = (db.prepare('PRAGMA table_info(qa_pages)').all() as { name: string }[]).map((c) => c.name);
    assert.ok(columns.includes('copies') && columns.includes('reference'), columns.join(', '));
    store.prepare(); // a second run finds them there
    const copies: QaPageResult['copies'] = {
      mirror: { textMatch: 1, screenshotMatch: 1, missing: [], error: null },
      replay: { textMatch: 0.9, screenshotMatch: 0.3, missing: [{ url: 'http://a.test/y.png', type: 'image' }], error: null },
    };
    const r: QaPageResult = { url: 'http://a.test/b', capture: 1, analysedAt: '2026-01-02T00:00:00Z', reference: 'crawl-render', copies, ...worstOfCopies(copies), deadLinks: [] };
    store.put(r);
    assert.deepEqual(store.result(1, 'http://a.test/b'), r);
    assert.equal(r.screenshotMatch, 0.3);
    assert.deepEqual(r.missing, [{ url: 'http://a.test/y.png', type: 'image' }]);
    // Worst first: the old row (0.25) before the new one (0.3).
    assert.deepEqual(store.results(1).map((x) => x.url), ['http://a.test/', 'http://a.test/b']);
  });

  it('takes the worst of the copies: the lower match of each kind, every resource lacked once, a failed copy’s error', () => {
    const w = worstOfCopies({
      mirror: { textMatch: 0.8, screenshotMatch: 1, missing: [{ url: 'u1', type: 'image' }], error: null },
      replay: { textMatch: 1, screenshotMatch: 0.6, missing: [{ url: 'u1', type: 'image' }, { url: 'u2', type: 'font' }], error: null },
    });
    assert.deepEqual(w, { textMatch: 0.8, screenshotMatch: 0.6, missing: [{ url: 'u1', type: 'image' }, { url: 'u2', type: 'font' }], error: null });
    const failed = worstOfCopies({ mirror: { textMatch: 1, screenshotMatch: 1, missing: [], error: null }, replay: { textMatch: null, screenshotMatch: null, missing: [], error: 'timed out' } });
    assert.deepEqual(failed, { textMatch: null, screenshotMatch: null, missing: [], error: 'replay: timed out' });
  });

  it('counts a capture\'s figures in SQLite as the scores read one by one would: tenths, errors, pages lacking something', () => {
    const db = new Database(':memory:');
    const store = new QaStore(db);
    assert.deepEqual(store.figures(1), { analysed: 0, errors: 0, withMissing: 0, histogram: new Array(10).fill(0) }, 'an archive never analysed');
    store.prepare();
    const scores: [number | null, number | null][] = [[1, 1], [0.95, 1], [0.9, 0.99], [0.7, 0.3], [0.29999999999999993, 1], [0, 0.5], [null, null], [0.1, 0.1]];
    scores.forEach(([text, shot], i) => {
      const copies = { mirror: { textMatch: text, screenshotMatch: shot, missing: i % 3 === 0 ? [{ url: `u${i}`, type: 'image' }] : [], error: text === null ? 'timed out' : null } };
      store.put({ url: `http://a.test/${i}`, capture: 1, analysedAt: '2026-01-01T00:00:00Z', reference: 'live', copies, ...worstOfCopies(copies), deadLinks: [] });
    });
    store.put({ url: 'http://a.test/other', capture: 2, analysedAt: '2026-01-01T00:00:00Z', reference: 'live', copies: {}, textMatch: 0, screenshotMatch: 0, missing: [], error: null, deadLinks: [] });
    const results = store.results(1);
    const histogram = new Array<number>(10).fill(0);
    for (const r of results) {
      const score = qaScore(r);
      if (score !== null) histogram[Math.min(9, Math.floor(score * 10))]!++;
    }
    assert.deepEqual(store.figures(1), { analysed: 8, errors: 1, withMissing: 3, histogram });
    assert.deepEqual(histogram, [1, 1, 1, 1, 0, 0, 0, 0, 0, 3]);
    assert.equal(store.count(1), 8);
    assert.ok(store.has(1, 'http://a.test/3') && !store.has(2, 'http://a.test/3'));
  });
});
