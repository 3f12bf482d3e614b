import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScopeSchema, type Scope } from '../../shared/job.js';
import { ScopeRules } from '../../electron/engine/scope.js';
import { canonicalize } from '../../electron/engine/url/canonical.js';

function rules(scope: Partial<Scope>, seeds: string[]): ScopeRules {
  return new ScopeRules(ScopeSchema.parse(scope), seeds);
}

function assertScope(r: ScopeRules, inside: string[], outside: string[]): void {
  for (const url of inside) assert.equal(r.inScope(canonicalize(url) ?? url), true, `expected in scope: ${url}`);
  for (const url of outside) assert.equal(r.inScope(canonicalize(url) ?? url), false, `expected out of scope: ${url}`);
}

describe('ScopeRules, host mode', () => {
  it('takes the same host and port as a seed, whatever the scheme', () => {
    assertScope(
      rules({}, ['http://Example.org/start/page.html']),
      ['http://example.org/', 'http://example.org/other/deep/x.pdf', 'https://example.org/secure', 'http://example.org:80/x'],
      ['http://www.example.org/', 'http://example.org:8080/', 'http://other.org/', 'http://example.org.evil.net/'],
    );
  });

  it('respects a non-default port', () => {
    assertScope(
      rules({ mode: 'host' }, ['http://127.0.0.1:8765/']),
      ['http://127.0.0.1:8765/a'],
      ['http://127.0.0.1/a', 'http://127.0.0.1:8766/a', 'http://localhost:8765/a'],
    );
  });

  it('accepts a URL matching any of several seeds', () => {
    assertScope(rules({}, ['http://a.example/', 'http://b.example/x/']), ['http://a.example/1', 'http://b.example/2'], ['http://c.example/']);
  });
});

describe('ScopeRules, domain mode', () => {
  it('takes the registrable domain and its subdomains', () => {
    assertScope(
      rules({ mode: 'domain' }, ['https://www.library.ac.uk/']),
      ['https://library.ac.uk/', 'http://archive.library.ac.uk/x', 'https://a.b.library.ac.uk:8443/'],
      ['https://other.ac.uk/', 'https://ac.uk/', 'https://library.ac.uk.evil.com/', 'https://mylibrary.ac.uk/'],
    );
  });

  it('treats private suffixes as public, so one hosted site does not bring in its neighbours', () => {
    assertScope(
      rules({ mode: 'domain' }, ['https://someone.github.io/project/']),
      ['https://someone.github.io/other', 'https://sub.someone.github.io/'],
      ['https://another.github.io/', 'https://github.io/'],
    );
  });

  it('falls back to the exact host for IP addresses and single-label hosts', () => {
    assertScope(
      rules({ mode: 'domain' }, ['http://127.0.0.1:8765/', 'http://localhost:3000/']),
      ['http://127.0.0.1:8765/a', 'http://127.0.0.1:9000/b', 'http://localhost/x'],
      ['http://127.0.0.2/', 'http://0.0.1/', 'http://sub.localhost/', 'http://other/'],
    );
  });
});

describe('ScopeRules, prefix mode', () => {
  it("takes the seed's origin and directory", () => {
    assertScope(
      rules({ mode: 'prefix' }, ['http://example.org/collections/maps/index.html?view=grid']),
      ['http://example.org/collections/maps/', 'http://example.org/collections/maps/1850/sheet.html?x=1'],
      [
        'http://example.org/collections/',
        'http://example.org/collections/maps',
        'http://example.org/collections/maps-old/',
        'https://example.org/collections/maps/',
        'http://example.org:8080/collections/maps/',
        'http://www.example.org/collections/maps/',
      ],
    );
  });

  it('takes the directory containing a seed without trailing slash', () => {
    assertScope(
      rules({ mode: 'prefix' }, ['http://example.org/collections/maps']),
      ['http://example.org/collections/', 'http://example.org/collections/books/x'],
      ['http://example.org/', 'http://example.org/about'],
    );
  });
});

describe('ScopeRules, include and exclude', () => {
  it('brings matching URLs into scope with include', () => {
    assertScope(
      rules({ include: ['^https://cdn\\.example\\.net/'] }, ['http://example.org/']),
      ['https://cdn.example.net/a.css', 'http://example.org/'],
      ['https://cdn2.example.net/a.css'],
    );
  });

  it('lets exclude win over the mode and over include', () => {
    assertScope(
      rules({ include: ['^https://cdn\\.example\\.net/'], exclude: ['/private/', '\\.zip$'] }, ['http://example.org/']),
      ['http://example.org/public/', 'https://cdn.example.net/x'],
      ['http://example.org/private/x', 'http://example.org/big.zip', 'https://cdn.example.net/private/x'],
    );
  });

  it('can exclude a seed itself', () => {
    assertScope(rules({ exclude: ['^http://example\\.org/$'] }, ['http://example.org/']), ['http://example.org/a'], ['http://example.org/']);
  });

  it('matches regexes against the canonical absolute URL', () => {
    assertScope(rules({ mode: 'prefix', exclude: ['\\?sort='] }, ['http://example.org/list/']), ['http://example.org/list/?page=2'], ['http://example.org/list/?sort=asc']);
  });
});

describe('ScopeRules, bad input', () => {
  it('says no to unparsable URLs', () => {
    assert.equal(rules({}, ['http://example.org/']).inScope('not a url'), false);
  });

  it('refuses seeds that are not http(s) URLs', () => {
    assert.throws(() => rules({}, ['mailto:a@example.org']));
  });
});

