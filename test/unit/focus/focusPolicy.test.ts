import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseTemplate, type TemplateInput } from '../../../shared/template.js';
import { FocusPolicy } from '../../../electron/engine/focus/focusPolicy.js';
import { LINK_ADVANCES, LINK_NEXT_PAGE, type PageAnalysis } from '../../../electron/engine/focus/pageAnalysisTypes.js';
import { simhashHex } from '../../../electron/engine/focus/simhash.js';
import { Catalogue, type QueuedRow } from '../../../electron/engine/store/catalogue.js';
import { focusReport } from '../../../electron/engine/store/focusReport.js';
import { FocusStore } from '../../../electron/engine/store/focusStore.js';
import { FocusReportSchema } from '../../../shared/extracted.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-focus-policy-'));
let n = 0;
after(() => rmSync(dir, { recursive: true, force: true }));

function setup(t: Partial<TemplateInput> = {}) {
  const catalogue = Catalogue.open(path.join(dir, `c${n++}.sqlite`));
  const template = parseTemplate({ topic: { keywords: ['flood'], threshold: 0.3 }, filters: [['environment'], ['flood']], ...t });
  return { catalogue, policy: new FocusPolicy(template, new FocusStore(catalogue)) };
}

function row(id: number, score: number | null): QueuedRow {
  return { id, url: `http://a.test/${id}`, depth: 1, requisite: 0, type_hint: 'html', redirect_hops: 0, attempts: 0, score };
}

function analysis(a: Partial<PageAnalysis>): PageAnalysis {
  return { relevance: 0, simhash: simhashHex(0x0123456789abcdefn), digest: `d${n++}`, linkScores: [], linkOwn: [], linkFlags: [], matchesLevel: false, fields: null, ...a };
}

describe('focus policy', () => {
  it('reads a URL level from its score and asks for fields on every level (the analyser reads final and relevant pages)', () => {
    const { policy } = setup({ extract: { phone: { keywords: ['phone'] } } });
    assert.equal(policy.levelOf({ score: 0.999 }), 0);
    assert.equal(policy.levelOf({ score: 1.2 }), 1);
    assert.equal(policy.levelOf({ score: 7.5 }), 2);
    assert.deepEqual(policy.request(row(1, 0.5)), { level: 0, extract: true });
    assert.deepEqual(policy.request(row(1, 0.5), false), { level: 0, extract: false });
    assert.deepEqual(policy.request(row(1, 2.5)), { level: 2, extract: true });
  });

  it('scores links by level and score, follows next pages of matching pages only, and prunes off-topic pages links', () => {
    const { policy } = setup();
    const a = analysis({
      relevance: 0.1,
      linkScores: [0.2, 0.2, 0.5, 0.1, -1, 0.1],
      linkOwn: [0, 0, 0.45, 0, -1, 0],
      linkFlags: [0, LINK_ADVANCES, 0, LINK_NEXT_PAGE, 0, LINK_ADVANCES | LINK_NEXT_PAGE],
    });
    const offTopic = policy.judge(row(1, 1.5), a);
    assert.equal(offTopic.topicState, 'off-topic');
    assert.deepEqual(
      a.linkScores.map((_, i) => policy.link(offTopic, a, i)),
      [
        { score: 1.2, pruned: true },
        { score: 2.2, pruned: false },
        { score: 1.5, pruned: false },
        { score: 1.1, pruned: true },
        { score: 1.999, pruned: false },
        { score: 2.1, pruned: false },
      ],
    );
    // The same page mentioning its level's keywords continues its listing; a relevant page follows every link.
    const matching = policy.judge(row(2, 1.5), { ...a, digest: 'm', simhash: simhashHex(0xfedcba9876543210n), matchesLevel: true });
    assert.deepEqual(policy.link(matching, a, 3), { score: 1.999, pruned: false });
    const relevant = policy.judge(row(3, 1.5), { ...a, digest: 'r', simhash: simhashHex(0x0f0f0f0f0f0f0f0fn), relevance: 0.6 });
    assert.equal(relevant.topicState, 'relevant');
    assert.deepEqual(policy.link(relevant, a, 0), { score: 1.2, pruned: false });
  });

  it('takes a page whose relevance is exactly the topic threshold as relevant, and a link whose own score is exactly the link threshold as followed', () => {
    const { policy } = setup({ linkThreshold: 0.4 });
    const a = analysis({ relevance: 0.3, linkScores: [0.2, 0.2], linkOwn: [0.4, 0.39], linkFlags: [0, 0] });
    const atThreshold = policy.judge(row(1, 0.5), a);
    assert.equal(atThreshold.topicState, 'relevant');
    assert.deepEqual(policy.link(atThreshold, a, 1), { score: 0.2, pruned: false });
    const below = policy.judge(row(2, 0.5), { ...a, relevance: 0.29, digest: 'below', simhash: simhashHex(0xfedcba9876543210n) });
    assert.equal(below.topicState, 'off-topic');
    assert.deepEqual(
      [0, 1].map((i) => policy.link(below, a, i)),
      [
        { score: 0.2, pruned: false },
        { score: 0.2, pruned: true },
      ],
    );
  });

  it('marks a page within maxHamming of an earlier one, or with the same digest, a near-duplicate of it, and remembers pages across runs', () => {
    const { catalogue, policy } = setup({ nearDuplicate: { maxHamming: 3 } });
    const base = 0x0123456789abcdefn;
    const first = analysis({ relevance: 0.9, simhash: simhashHex(base), digest: 'same' });
    const v1 = policy.judge(row(1, 0.5), first);
    catalogue.transaction(() => policy.record(row(1, 0.5), v1, first, '2025-01-01T00:00:00.000Z'));
    assert.equal(v1.topicState, 'relevant');
    assert.deepEqual(
      [3, 4].map((bits) => policy.judge(row(10 + bits, 0.5), analysis({ relevance: 0.9, simhash: simhashHex(base ^ ((1n << BigInt(bits)) - 1n)) })).duplicateOf),
      [1, null],
    );
    assert.equal(policy.judge(row(20, 0.5), analysis({ simhash: simhashHex(~base & 0xffffffffffffffffn), digest: 'same' })).duplicateOf, 1);
    // A new run reads the earlier verdicts back.
    const again = new FocusPolicy(parseTemplate({ topic: { keywords: ['flood'] } }), new FocusStore(catalogue));
    assert.equal(again.judge(row(30, 0.5), analysis({ simhash: simhashHex(base ^ 1n) })).duplicateOf, 1);
    assert.deepEqual(again.counts(), { relevantPages: 1, offTopicPages: 0, nearDuplicates: 0, harvestRate: 1 });
  });

  it('records the fields of a near-duplicate too, its record naming the original; the report counts pages and values and groups the copies', () => {
    const { catalogue, policy } = setup({ extract: { phone: { keywords: ['phone'] } } });
    const [a, b] = ['http://a.test/contact', 'http://a.test/contact?utm_source=x'].map(
      (url) => catalogue.insert({ url, site: 'http://a.test', depth: 0, state: 'queued', requisite: false, parentId: null, via: null, typeHint: 'html', redirectHops: 0, skipReason: null }),
    );
    const fields = [{ field: 'phone', value: '01632 960 123\n01632 960 124', confidence: 0.8 }];
    for (const u of [a!, b!]) {
      const r = { ...row(u.id, 2.5), url: u.url };
      const page = analysis({ relevance: 0.9, digest: 'same', fields });
      catalogue.transaction(() => policy.record(r, policy.judge(r, page), page, '2025-01-01T00:00:00.000Z'));
    }
    assert.deepEqual(
      [...new FocusStore(catalogue).iterateRecords()].map((r) => [r.url, r.duplicateOf, r.fields['phone']?.value]),
      [
        [a!.url, null, '01632 960 123\n01632 960 124'],
        [b!.url, a!.url, '01632 960 123\n01632 960 124'],
      ],
    );
    const report = FocusReportSchema.parse(focusReport(new FocusStore(catalogue), ['phone', 'email']));
    assert.deepEqual(report, {
      fields: [
        {
          field: 'phone',
          pages: 2,
          values: 4,
          sample: [
            { url: a!.url, value: '01632 960 123' },
            { url: a!.url, value: '01632 960 124' },
            { url: b!.url, value: '01632 960 123' },
            { url: b!.url, value: '01632 960 124' },
          ],
        },
        { field: 'email', pages: 0, values: 0, sample: [] },
      ],
      nearDuplicates: [{ original: a!.url, copies: [{ url: b!.url, similarity: 1, notDuplicate: false }] }],
    });
    // A false flag marked as such: the next run judges the page as an original, and only that page.
    const store = new FocusStore(catalogue);
    assert.equal(store.markDistinct(a!.id), false, 'an original has no flag to mark');
    assert.equal(store.markDistinct(b!.id), true);
    assert.deepEqual(focusReport(store, ['phone']).nearDuplicates, [{ original: a!.url, copies: [{ url: b!.url, similarity: 1, notDuplicate: true }] }]);
    // Taken back and marked again (the app's undo).
    assert.equal(store.unmarkDistinct(b!.id), true);
    assert.equal(store.unmarkDistinct(b!.id), false, 'no mark left to take back');
    assert.deepEqual(store.distinct(), []);
    assert.equal(store.markDistinct(b!.id), true);
    const next = new FocusPolicy(parseTemplate({ topic: { keywords: ['flood'] }, extract: { phone: { keywords: ['phone'] } } }), new FocusStore(catalogue));
    const again = analysis({ relevance: 0.9, digest: 'same' });
    assert.equal(next.judge({ ...row(b!.id, 2.5), url: b!.url }, again).duplicateOf, null);
    assert.equal(next.judge(row(99, 2.5), again).duplicateOf, a!.id);
  });

  it('admits seeds with the crawl probability and draws the skipped ones again in the next run', () => {
    const seeds = Array.from({ length: 8 }, (_, i) => `http://s${i}.test/`);
    const { catalogue, policy } = setup({ crawlProbability: { enabled: true, randomSeed: 3 } });
    const first = policy.seedsToAdmit(catalogue, seeds);
    assert.ok(first.includes(seeds[0]!), 'the first seed has P = 1');
    assert.ok(first.length < seeds.length, `some seed is skipped with random seed 3: ${first}`);
    const skipped = seeds.filter((s) => !first.includes(s));
    const second = policy.seedsToAdmit(catalogue, seeds);
    assert.ok(second.every((s) => skipped.includes(s)), 'only seeds skipped before are drawn again');
    const third = policy.seedsToAdmit(catalogue, seeds);
    assert.ok(third.every((s) => skipped.includes(s) && !second.includes(s)));
    // Without it every seed is admitted.
    const plain = setup();
    assert.deepEqual(plain.policy.seedsToAdmit(plain.catalogue, seeds), seeds);
  });
});
