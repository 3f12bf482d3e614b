import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTemplate } from '../../../shared/template.js';
import { crawlProbability, sampleSeeds, seededRandom } from '../../../electron/engine/focus/crawlProbability.js';
import { linkScore, ownLinkScore } from '../../../electron/engine/focus/linkScore.js';
import { NextPageLabels } from '../../../electron/engine/focus/nextPage.js';
import { relevanceOf } from '../../../electron/engine/focus/relevance.js';
import { hamming, NearDuplicateIndex, simhash64 } from '../../../electron/engine/focus/simhash.js';
import { tokenize, urlTokens } from '../../../electron/engine/focus/tokens.js';
import { listMatcher, topicMatcher } from '../../../electron/engine/focus/topic.js';
import { DEFAULT_NEXT_PAGE_LABELS } from '../../../shared/template.js';

const flood = parseTemplate({
  topic: { keywords: ['flood risk', { term: '洪水', weight: 2, synonyms: ['防洪'] }], threshold: 0.3 },
});

describe('tokenize', () => {
  it('splits Chinese into words with ICU segmentation and Latin text at non-letters, folding case and endings', () => {
    assert.deepEqual(tokenize('关于洪水风险的报告'), ['关于', '洪水', '风险', '的', '报告']);
    assert.deepEqual(tokenize('Flooding: FLOODS, flood-risk maps (２０２５)'), ['flood', 'flood', 'flood', 'risk', 'maps', '2025']);
    assert.deepEqual(tokenize('business address'), ['business', 'address']);
    assert.deepEqual(urlTokens('https://a.test/flood-risk/maps_2?page=2'), ['flood', 'risk', 'maps', '2', 'page', '2']);
  });
});

describe('topic relevance', () => {
  const topic = topicMatcher(flood);
  const words = (n: number, filler = 'council') => Array.from({ length: n }, () => filler);

  it('is 0 without a keyword, grows with mentions and saturates below 1', () => {
    assert.equal(relevanceOf(topic, tokenize('The library opens at nine on Mondays.')), 0);
    const page = (k: number) => [...words(300 - 2 * k), ...Array.from({ length: k }, () => ['flood', 'risk']).flat()];
    const r = [1, 2, 4, 8, 16].map((k) => relevanceOf(topic, page(k)));
    for (let i = 1; i < r.length; i++) assert.ok(r[i]! > r[i - 1]!, `more mentions, higher: ${r}`);
    assert.ok(r[4]! < 1);
    // BM25 saturation at the average length: tf/(tf + k1) for a weight-1 keyword.
    assert.ok(Math.abs(r[0]! - 1 / (1 + 1.2)) < 1e-9, String(r[0]));
  });

  it('counts a phrase only as consecutive words, and a synonym as its term with the term weight', () => {
    assert.equal(relevanceOf(topic, tokenize('risk of a flood')), 0);
    const zh = relevanceOf(topic, tokenize('防洪'.repeat(1)));
    const zhTerm = relevanceOf(topic, tokenize('洪水'));
    assert.ok(zh > 0 && Math.abs(zh - zhTerm) < 1e-12);
    // Weight 2 reaches further than weight 1 at one mention in the same length.
    assert.ok(relevanceOf(topic, [...words(10), '洪水']) > relevanceOf(topic, [...words(9), 'flood', 'risk']));
  });

  it('weighs length: one mention in a long page counts less than in a short one', () => {
    assert.ok(relevanceOf(topic, [...words(50), 'flood', 'risk']) > relevanceOf(topic, [...words(2000), 'flood', 'risk']));
  });

  it('counts title mentions three times', () => {
    const body = [...words(300)];
    assert.ok(relevanceOf(topic, body, ['flood', 'risk']) > relevanceOf(topic, [...body, 'flood', 'risk']));
  });
});

describe('link score', () => {
  const topic = topicMatcher(flood);
  it('rises with anchor text, URL words and the parent page, in that order of weight', () => {
    const none = ownLinkScore(topic, tokenize('Opening hours'), urlTokens('https://a.test/hours'));
    const byUrl = ownLinkScore(topic, tokenize('Read more'), urlTokens('https://a.test/flood-risk/maps'));
    const byAnchor = ownLinkScore(topic, tokenize('Flood risk maps'), urlTokens('https://a.test/p/17'));
    const both = ownLinkScore(topic, tokenize('Flood risk maps'), urlTokens('https://a.test/flood-risk/maps'));
    assert.equal(none, 0);
    assert.ok(byUrl > 0 && byAnchor > byUrl && both > byAnchor, `${byUrl} ${byAnchor} ${both}`);
    assert.equal(linkScore(0, 1), 0.25);
    assert.equal(linkScore(byAnchor, 0), 0.75 * byAnchor);
    assert.ok(linkScore(byAnchor, 0.8) > linkScore(byAnchor, 0.1));
  });

  it('filter levels match anchor words with their endings folded', () => {
    const level = listMatcher(['environment', 'flooding']);
    assert.ok(level.any(tokenize('Environment and climate')));
    assert.ok(level.any(tokenize('Floods')));
    assert.ok(!level.any(tokenize('Parking')));
  });
});

describe('next-page labels', () => {
  const next = new NextPageLabels(DEFAULT_NEXT_PAGE_LABELS);
  it('matches the default labels with arrows and punctuation around them, and nothing else', () => {
    for (const t of ['Next', 'next page', 'Next »', '» ', '›', '下一页', '下页 >', '[Suivant]', 'Weiter →', 'NEXT PAGE ›'])
      assert.ok(next.matches(t), t);
    for (const t of ['Next steps for flood defence', 'Previous', '', 'Nextdoor', '上一页', 'weiterlesen'])
      assert.ok(!next.matches(t), t);
  });
});

describe('SimHash near-duplicates', () => {
  const flip = (h: bigint, bits: number[]) => bits.reduce((x, b) => x ^ (1n << BigInt(b)), h);

  it('finds exactly the hashes within maxHamming, whichever bits differ', () => {
    const random = seededRandom(7);
    for (const maxHamming of [0, 1, 3, 5]) {
      const index = new NearDuplicateIndex<string>(maxHamming);
      const base = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
      index.add(base, 'base');
      for (let trial = 0; trial < 200; trial++) {
        const bits = new Set<number>();
        const k = trial % (maxHamming + 3);
        while (bits.size < k) bits.add(Math.floor(random() * 64));
        const h = flip(base, [...bits]);
        assert.equal(hamming(h, base), k);
        const hit = index.find(h);
        if (k <= maxHamming) assert.deepEqual(hit, { value: 'base', distance: k }, `k=${k} max=${maxHamming}`);
        else assert.equal(hit, null, `k=${k} max=${maxHamming}`);
      }
    }
  });

  it('gives the same text with another date a nearby hash and another text a distant one', () => {
    const story = 'the council has published new flood risk maps for the river valley and residents are asked to check whether their homes lie in the areas at risk and to sign up for warnings';
    const a = simhash64(tokenize(`${story} updated 3 march 2025`));
    const b = simhash64(tokenize(`${story} updated 14 april 2026`));
    const c = simhash64(tokenize('the library will close early on friday for staff training and reopen on saturday morning at nine with the usual children reading hour and the history society talk'));
    assert.ok(hamming(a, b) <= 12, String(hamming(a, b)));
    assert.ok(hamming(a, c) >= 20, String(hamming(a, c)));
    assert.equal(simhash64(tokenize(story)), simhash64(tokenize(story)));
  });
});

describe('crawl probability', () => {
  it('follows P = 1 − (s + f)/(2n)', () => {
    assert.equal(crawlProbability(0, 0, 10), 1);
    assert.equal(crawlProbability(9, 0, 10), 1 - 9 / 20);
    assert.equal(crawlProbability(4, 3, 10), 1 - 7 / 20);
    assert.ok(Math.abs(crawlProbability(9, 9, 10) - 0.1) < 1e-12);
    assert.equal(crawlProbability(19, 5, 10), 0);
  });

  it('draws each seed with its probability, deterministically for a random seed', () => {
    const seeds = Array.from({ length: 10 }, (_, i) => `https://s${i}.test/`);
    const unproductive = new Set([seeds[1]!, seeds[2]!]);
    const a = sampleSeeds(seeds, unproductive, 42);
    assert.deepEqual(sampleSeeds(seeds, unproductive, 42), a);
    // f counts the unproductive seeds ranked before each seed.
    assert.deepEqual(
      a.map((d) => d.probability),
      seeds.map((_, s) => 1 - (s + (s > 2 ? 2 : s > 1 ? 1 : 0)) / 20),
    );
    const random = seededRandom(42);
    assert.deepEqual(a.map((d) => d.crawl), a.map((d) => random() < d.probability));
    // Over many generator seeds, each seed's crawl frequency approaches its probability.
    const runs = 4000;
    const crawled = new Array<number>(10).fill(0);
    for (let r = 0; r < runs; r++) sampleSeeds(seeds, unproductive, r + 1).forEach((d, i) => (crawled[i]! += d.crawl ? 1 : 0));
    crawled.forEach((n, i) => assert.ok(Math.abs(n / runs - a[i]!.probability) < 0.03, `seed ${i}: ${n / runs} vs ${a[i]!.probability}`));
  });
});
