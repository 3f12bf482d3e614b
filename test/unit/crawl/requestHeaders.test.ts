import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CookiesTxtError, parseCookiesTxt } from '../../../shared/cookiesTxt.js';
import { HARVEST_VERSION, parseJob, userAgentFor, type JobInput } from '../../../shared/job.js';
import { RequestHeaders } from '../../../electron/engine/crawl/requestHeaders.js';
import { withholdCredentials } from '../../../electron/engine/warc/withheld.js';

const NOW_S = 1_800_000_000;
const job = (extra: Partial<JobInput> = {}) => parseJob({ seeds: ['https://www.uni.example/library/'], ...extra });

describe('request settings as headers', () => {
  it('sends no Accept-Language, From or contact unless the job sets them', () => {
    const j = job();
    assert.deepEqual(new RequestHeaders(j).common, []);
    assert.deepEqual(new RequestHeaders(j).for('https://www.uni.example/'), []);
    assert.equal(userAgentFor(j), `Harvest/${HARVEST_VERSION} (web archiving)`);
  });

  it('names a URL contact in the User-Agent, and an e-mail address there and as From', () => {
    assert.equal(userAgentFor(job({ contactUrl: 'https://lib.example/crawl' })), `Harvest/${HARVEST_VERSION} (web archiving; +https://lib.example/crawl)`);
    const byMail = job({ contactUrl: 'archive@lib.example', request: { userAgentSuffix: 'Theses/1' } });
    assert.equal(userAgentFor(byMail), `Harvest/${HARVEST_VERSION} (web archiving; +mailto:archive@lib.example) Theses/1`);
    assert.deepEqual(new RequestHeaders(job({ contactUrl: 'mailto:archive@lib.example' })).common, [['From', 'archive@lib.example']]);
    assert.throws(() => job({ contactUrl: 'call the library' }), /URL or an e-mail address/);
  });

  it('refuses headers Harvest sets itself or that carry credentials', () => {
    assert.throws(() => job({ request: { headers: ['Cookie: a=b'] } }), /own settings/);
    assert.throws(() => job({ request: { headers: ['Transfer-Encoding: chunked'] } }), /sends itself/);
    assert.throws(() => job({ request: { headers: ['no colon'] } }), /Name: value/);
    assert.deepEqual(new RequestHeaders(job({ request: { headers: ['X-Collection:  theses '] } })).common, [['X-Collection', 'theses']]);
  });

  it('sends a cookie where its domain, path, secure flag and expiry allow, longest path first', () => {
    const cookies = parseCookiesTxt(
      [
        '# Netscape HTTP Cookie File',
        'uni.example\tTRUE\t/\tFALSE\t0\tsite\t1',
        '#HttpOnly_.www.uni.example\tFALSE\t/library\tTRUE\t0\tlib\t2',
        'www.uni.example\tFALSE\t/\tFALSE\t1000\told\t3',
        'other.example\tTRUE\t/\tFALSE\t0\telsewhere\t4',
      ].join('\n'),
    );
    const h = new RequestHeaders(job({ request: { cookies } }), () => NOW_S);
    assert.deepEqual(h.for('https://www.uni.example/library/x'), [['Cookie', 'lib=2; site=1']]);
    assert.deepEqual(h.for('http://www.uni.example/library/x'), [['Cookie', 'site=1']], 'secure cookies go over https only');
    assert.deepEqual(h.for('https://www.uni.example/librarian'), [['Cookie', 'site=1']], '/library does not match /librarian');
    assert.deepEqual(h.for('https://cdn.example/x.png'), []);
    assert.throws(() => parseCookiesTxt('a.example\tTRUE\t/\n'), CookiesTxtError);
  });

  it("sends basic auth only to the seeds' sites, or only under its URL prefix", () => {
    const auth = { username: 'staff', password: 'pw', urlPrefix: '' };
    const expected: [string, string][] = [['Authorization', `Basic ${Buffer.from('staff:pw').toString('base64')}`]];
    const seeds = new RequestHeaders(job({ request: { basicAuth: auth } }));
    assert.deepEqual(seeds.for('https://www.uni.example/intranet/'), expected);
    assert.deepEqual(seeds.for('https://cdn.uni.example/logo.png'), []);
    assert.deepEqual(seeds.for('http://www.uni.example/intranet/'), [], 'another origin, even on the same host');
    const prefixed = new RequestHeaders(job({ request: { basicAuth: { ...auth, urlPrefix: 'https://www.uni.example/staff/' } } }));
    assert.deepEqual(prefixed.for('https://www.uni.example/staff/a'), expected);
    assert.deepEqual(prefixed.for('https://www.uni.example/public/'), []);
  });

  it('withholds credential values from what a request record keeps, keeping every header and its order', () => {
    assert.deepEqual(
      withholdCredentials([
        ['Host', 'a.example'],
        ['authorization', 'Basic c3RhZmY6cHc='],
        ['Cookie', 'session=abc; theme=dark'],
        ['Accept-Language', 'fr'],
      ]),
      [
        ['Host', 'a.example'],
        ['authorization', 'Basic (withheld)'],
        ['Cookie', 'session=(withheld); theme=(withheld)'],
        ['Accept-Language', 'fr'],
      ],
    );
  });
});
