import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJob } from '../../../shared/job.js';
import { DEFAULT_NEXT_PAGE_LABELS, parseTemplate, searchKeywordsOf, TemplateValidationError } from '../../../shared/template.js';

/** The issue's core example, exactly as written there. */
export const CORE_EXAMPLE = String.raw`{"topic": {"keywords": ["flood risk", {"term": "洪水", "weight": 2,
   "synonyms": ["防洪"]}], "threshold": 0.3}, "filters": [["environment", "flooding"], ["flood"]],
   "nextPage": ["next", "下一页"], "extract": {"phone": {"keywords": ["phone", "tel", "电话"]},
   "email": {"keywords": ["email", "邮箱"], "regex": "[^@\\s]+@[^@\\s]+"}}, "nearDuplicate":
   {"maxHamming": 3}}`;

function issuesOf(input: unknown): string[] {
  try {
    parseTemplate(input);
  } catch (e) {
    assert.ok(e instanceof TemplateValidationError);
    return e.issues.map((i) => `${i.path}: ${i.message}`);
  }
  assert.fail('expected a validation error');
}

describe('template schema', () => {
  it('accepts the issue core example as written, with defaults filled', () => {
    const t = parseTemplate(JSON.parse(CORE_EXAMPLE));
    assert.deepEqual(t.topic.keywords, ['flood risk', { term: '洪水', weight: 2, synonyms: ['防洪'] }]);
    assert.equal(t.topic.threshold, 0.3);
    assert.deepEqual(t.filters, [['environment', 'flooding'], ['flood']]);
    assert.deepEqual(t.nextPage, ['next', '下一页']);
    assert.equal(t.extract.email!.regex, '[^@\\s]+@[^@\\s]+');
    assert.deepEqual(t.extract.phone!.synonyms, []);
    assert.equal(t.nearDuplicate.maxHamming, 3);
    assert.equal(t.nearDuplicate.shingle, 3);
    assert.equal(t.crawlProbability.enabled, false);
  });

  it('fills the default next-page labels and threshold when absent', () => {
    const t = parseTemplate({ topic: { keywords: ['x'] } });
    assert.deepEqual(t.nextPage, [...DEFAULT_NEXT_PAGE_LABELS]);
    assert.ok(t.nextPage.includes('下一页') && t.nextPage.includes('weiter') && t.nextPage.includes('»'));
    assert.equal(t.topic.threshold, 0.3);
    assert.equal(t.nearDuplicate.maxHamming, 10);
  });

  it('names the field in every error', () => {
    assert.deepEqual(issuesOf({ topic: { keywords: ['a', { term: 'b', weight: -1 }] } }), [
      'topic.keywords.1.weight: Too small: expected number to be >0',
    ]);
    assert.deepEqual(issuesOf({ topic: { keywords: ['a', 5] } }), [
      'topic.keywords.1: must be a keyword string or {"term": "...", "weight": n, "synonyms": [...]}',
    ]);
    assert.match(issuesOf({ topic: { keywords: ['a'], threshold: 2 } })[0]!, /^topic\.threshold: /);
    assert.match(issuesOf({ topic: { keywords: [] } })[0]!, /^topic\.keywords: needs at least one keyword/);
    assert.match(issuesOf({})[0]!, /^topic: /);
    assert.match(issuesOf({ topic: { keywords: ['a'] }, filters: [['x'], []] })[0]!, /^filters\.1: a filter level needs/);
    assert.deepEqual(issuesOf({ topic: { keywords: ['a'] }, extract: { email: { keywords: ['e'], regex: '(' } } }), [
      'extract.email.regex: is not a valid regular expression',
    ]);
    // Patterns a backtracking engine could take exponential time over.
    for (const regex of ['(a+)+$', '(\\w|\\d)*@', '(?:[a-z]+\\.)+com', '(x)\\1']) {
      assert.match(issuesOf({ topic: { keywords: ['a'] }, extract: { f: { keywords: ['e'], regex } } })[0] ?? '', /^extract\.f\.regex: can take too long on a page: /, regex);
    }
    for (const regex of ['[\\w.+-]{1,64}@[\\w-]{1,63}\\.[\\w.-]{2,63}', '\\+?\\(?[0-9][0-9 ()\\-]{6,}[0-9]', '(\\d{3}-)?\\d{4}', '(?<y>\\d{4})-\\d\\d']) {
      assert.equal(parseTemplate({ topic: { keywords: ['a'] }, extract: { f: { keywords: ['e'], regex } } }).extract.f?.regex, regex);
    }
    assert.deepEqual(issuesOf({ topic: { keywords: ['a'] }, nearDuplicate: { maxHaming: 2 } }), ["nearDuplicate: unknown field 'maxHaming'"]);
    assert.match(issuesOf({ topic: { keywords: ['a'] }, nearDuplicate: { maxHamming: 1.5 } })[0]!, /^nearDuplicate\.maxHamming: /);
  });

  it('seed discovery: search patterns need {q}, sitemaps are true or URLs, keywords default to the topic terms', () => {
    const t = parseTemplate({ topic: { keywords: ['flood risk', { term: '洪水' }] }, seeds: { search: ['http://a.test/s?q={q}&p={page}'] } });
    assert.deepEqual(searchKeywordsOf(t), ['flood risk', '洪水']);
    assert.equal(t.seeds!.pages, 3);
    assert.equal(t.seeds!.sitemaps, false);
    assert.equal(parseTemplate({ topic: { keywords: ['a'] } }).seeds, null);
    assert.deepEqual(issuesOf({ topic: { keywords: ['a'] }, seeds: { search: ['http://a.test/s?page={page}'] } }), [
      'seeds.search.0: must contain {q} where the search keywords go',
    ]);
    assert.deepEqual(issuesOf({ topic: { keywords: ['a'] }, seeds: { search: ['ftp://a.test/{q}'] } }), ['seeds.search.0: must be an http:// or https:// URL']);
    assert.match(issuesOf({ topic: { keywords: ['a'] }, seeds: { sitemaps: ['/sitemap.xml'] } })[0]!, /^seeds\.sitemaps/);
    assert.match(issuesOf({ topic: { keywords: ['a'] }, seeds: { pages: 0 } })[0]!, /^seeds\.pages: /);
  });

  it('is stored with the job: a job without one has null, a job with one keeps it through a round trip', () => {
    assert.equal(parseJob({ seeds: ['https://a.test/'] }).template, null);
    const job = parseJob({ seeds: ['https://a.test/'], template: JSON.parse(CORE_EXAMPLE) });
    const again = parseJob(JSON.parse(JSON.stringify(job)));
    assert.deepEqual(again.template, job.template);
    assert.throws(() => parseJob({ seeds: ['https://a.test/'], template: { topic: {} } }), /template\.topic\.keywords/);
  });
});
