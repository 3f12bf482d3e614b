import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { canonicalize } from '../../../electron/engine/url/canonical.js';
import { hrefBetween, localPathFor, resolveInside } from '../../../electron/engine/url/localPath.js';

const WINDOWS_DEVICE = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$) *$/i;

/** Problems with one path component on Windows, macOS or Linux ([] when it is fine). */
function componentProblems(name: string): string[] {
  const problems: string[] = [];
  if (name === '' || name === '.' || name === '..') problems.push('empty or dot name');
  if (/[<>:"/\\|?*\p{Cc}]/u.test(name)) problems.push('forbidden character');
  if (/[. ]$/.test(name)) problems.push('trailing dot or space');
  if (WINDOWS_DEVICE.test(name.split('.')[0] ?? '')) problems.push('Windows device name');
  if (Buffer.byteLength(name, 'utf8') > 200) problems.push('too long');
  if (name !== name.normalize('NFC')) problems.push('not NFC');
  return problems;
}

function assertSafeLocalPath(localPath: string, label: string): void {
  assert.ok(!path.posix.isAbsolute(localPath) && !path.win32.isAbsolute(localPath), `${label}: absolute`);
  for (const name of localPath.split('/')) {
    assert.deepEqual(componentProblems(name), [], `${label}: component ${JSON.stringify(name)} of ${localPath}`);
  }
  const posixRoot = '/srv/mirror';
  const windowsRoot = 'C:\\mirror';
  assert.ok(resolveInside(posixRoot, localPath, path.posix).startsWith(posixRoot + '/'), label);
  assert.ok(resolveInside(windowsRoot, localPath, path.win32).startsWith(windowsRoot + '\\'), label);
  // Windows reads '/' as a separator too: the component count must survive its normalisation.
  assert.equal(path.win32.normalize(localPath).split('\\').length, localPath.split('/').length, label);
}

/** Names as a case-insensitive, normalisation-insensitive file system (NTFS, APFS) compares them. */
function foldedForFileSystem(localPath: string): string {
  return localPath.normalize('NFD').toUpperCase().toLowerCase().normalize('NFC');
}

const TRICKY_URLS = [
  'http://example.org/',
  'http://example.org/about',
  'http://example.org/About',
  'http://example.org/ABOUT',
  'http://example.org/about/',
  'http://example.org/about/team.html',
  'http://example.org/About/team.html',
  'http://example.org/straße',
  'http://example.org/strasse',
  'http://example.org/STRASSE',
  'http://example.org/%C5%BF',
  'http://example.org/s',
  'http://example.org/about/%C3%A9quipe.html',
  'http://example.org/about/e%CC%81quipe.html',
  'http://example.org/about/%C3%89quipe.html',
  'http://example.org/a=b',
  'http://example.org/a%3Db',
  'http://example.org/a:b',
  'http://example.org/a%3Ab',
  'http://example.org/a%2Fb',
  'http://example.org/a/b',
  'http://example.org/a%5Cb',
  'http://example.org/100%25',
  'http://example.org/100%2525',
  'http://example.org/%25h0123456789ab',
  'http://example.org/x%FF',
  'http://example.org/x%FE',
  'http://example.org/x%EF%BF%BD',
  'http://example.org/con',
  'http://example.org/%43ON.txt',
  'http://example.org/aux.tar.gz',
  'http://example.org/com1/readme',
  'http://example.org/lpt9',
  'http://example.org/nul%20.txt',
  'http://example.org/name.',
  'http://example.org/name..',
  'http://example.org/name%20',
  'http://example.org/.../x',
  'http://example.org/a//b',
  'http://example.org/a///b',
  'http://example.org/%3C%3E%22%7C%3F*',
  'http://example.org/tab%09newline%0Anul%00',
  'http://example.org/%E2%80%AEgnp.exe',
  'http://example.org/search?q=1',
  'http://example.org/search?q=2',
  'http://example.org/search?Q=1',
  'http://example.org/search',
  'http://example.org/dir/?page=3',
  'http://example.org/dir/?page=4',
  'http://example.org/' + 'a'.repeat(400),
  'http://example.org/' + 'a'.repeat(399) + 'b',
  'http://example.org/' + 'é'.repeat(200) + '.html',
  'http://example.org/' + 'é'.repeat(199) + 'è.html',
  'http://example.org:8080/',
  'https://example.org:8443/',
  'http://a_8080.example/',
  'http://a.example:8080/',
  'http://[::1]/',
  'http://[::1]:8080/',
  'http://[2001:db8::1]/x',
  'http://xn--bcher-kva.example/b%C3%BCcher/',
];

describe('localPathFor', () => {
  it('names the site by host, with a port only when it is not the default', () => {
    assert.equal(localPathFor('http://127.0.0.1:8765/about/', 'text/html'), '127.0.0.1_8765/about/index.html');
    assert.equal(localPathFor('http://example.org:80/', 'text/html'), 'example.org/index.html');
    assert.equal(localPathFor('https://example.org:443/a.css', 'text/css'), 'example.org/a.css');
  });

  it('gives every component a name valid on Windows, macOS and Linux', () => {
    for (const url of TRICKY_URLS) {
      for (const type of [null, 'text/html', 'image/png']) assertSafeLocalPath(localPathFor(url, type), url);
    }
  });

  it('never maps two distinct URLs to names a case- or normalisation-insensitive file system confuses', () => {
    for (const type of [null, 'image/png']) {
      const seen = new Map<string, string>();
      for (const url of TRICKY_URLS) {
        const canonical = canonicalize(url);
        assert.ok(canonical);
        const key = foldedForFileSystem(localPathFor(url, type));
        const other = seen.get(key);
        assert.ok(other === undefined || other === canonical, `${url} and ${other} share ${key}`);
        seen.set(key, canonical);
      }
    }
  });

  it('is a pure function of URL and content type, whatever the order of calls', () => {
    const forward = TRICKY_URLS.map((u) => localPathFor(u, 'text/html'));
    const backward = [...TRICKY_URLS].reverse().map((u) => localPathFor(u, 'text/html')).reverse();
    assert.deepEqual(forward, backward);
  });

  it('gives every spelling of one URL the same path', () => {
    const spellings = ['http://example.org/a/b/Page?x=%7e', 'HTTP://EXAMPLE.ORG:80/a/./c/../b/Page?x=~#frag'];
    const paths = new Set(spellings.map((u) => localPathFor(u, 'text/html')));
    assert.equal(paths.size, 1);
  });

  it('keeps one directory name for all files under it', () => {
    const a = localPathFor('http://example.org/Docs/a.html', 'text/html').split('/');
    const b = localPathFor('http://example.org/Docs/b/c.html', 'text/html').split('/');
    assert.equal(a[1], b[1]);
  });

  it('names directory URLs index.html, or index.<ext> for clearly non-HTML types', () => {
    assert.equal(localPathFor('http://example.org/about/', 'text/html'), 'example.org/about/index.html');
    assert.equal(localPathFor('http://example.org/about/', null), 'example.org/about/index.html');
    assert.equal(localPathFor('http://example.org/feed/', 'application/json'), 'example.org/feed/index.json');
    assert.equal(localPathFor('http://example.org/', 'TEXT/HTML; charset=UTF-8'), 'example.org/index.html');
  });

  it('gives HTML, CSS and JavaScript the extension a browser needs', () => {
    const cases: [string, string, string][] = [
      ['/page.php', 'text/html', 'page.php.html'],
      ['/about', 'text/html', 'about.html'],
      ['/old.htm', 'text/html', 'old.htm'],
      ['/doc.xhtml', 'application/xhtml+xml', 'doc.xhtml.html'],
      ['/theme', 'text/css', 'theme.css'],
      ['/theme.css', 'text/css; charset=utf-8', 'theme.css'],
      ['/style.php', 'text/css', 'style.php.css'],
      ['/app', 'application/javascript', 'app.js'],
      ['/app.js', 'text/javascript', 'app.js'],
      ['/app.mjs', 'text/javascript', 'app.mjs'],
    ];
    for (const [urlPath, type, name] of cases) {
      assert.equal(localPathFor(`http://example.org${urlPath}`, type), `example.org/${name}`, urlPath);
    }
  });

  it("keeps the URL's own extension for other types, else adds one from the type", () => {
    const cases: [string, string | null, string][] = [
      ['/logo', 'image/png', 'logo.png'],
      ['/photo.jpeg', 'image/jpeg', 'photo.jpeg'],
      ['/photo', 'image/jpeg', 'photo.jpg'],
      ['/report.pdf', 'application/pdf', 'report.pdf'],
      ['/report-v1.2', 'application/pdf', 'report-v1.2.pdf'],
      ['/download.php', 'application/pdf', 'download.php.pdf'],
      ['/blob', 'application/octet-stream', 'blob'],
      ['/data', null, 'data'],
      ['/page.php', null, 'page.php'],
      ['/.htaccess', 'text/plain', '.htaccess.txt'],
    ];
    for (const [urlPath, type, name] of cases) {
      assert.equal(localPathFor(`http://example.org${urlPath}`, type), `example.org/${name}`, urlPath);
    }
  });

  it('folds a query into the file name as a hash, never a raw ?', () => {
    const q3 = localPathFor('http://example.org/catalogue/?page=3', 'text/html');
    const q4 = localPathFor('http://example.org/catalogue/?page=4', 'text/html');
    assert.match(q3, /^example\.org\/catalogue\/index%h[0-9a-f]{12}\.html$/);
    assert.notEqual(q3, q4);
    assert.equal(localPathFor('http://example.org/catalogue/?page=3', 'text/html'), q3);
    assert.match(localPathFor('http://example.org/app.js?v=3', 'text/javascript'), /^example\.org\/app%h[0-9a-f]{12}\.js$/);
    assert.match(localPathFor('http://example.org/img.php?id=1', 'image/png'), /^example\.org\/img%h[0-9a-f]{12}\.php\.png$/);
    assert.ok(!q3.includes('?'));
  });

  it('keeps readable decoded names for non-ASCII segments', () => {
    assert.equal(localPathFor('http://example.org/about/%C3%A9quipe.html', 'text/html'), 'example.org/about/équipe.html');
    assert.equal(localPathFor('http://example.org/數據/', 'text/html'), 'example.org/數據/index.html');
    const decomposed = localPathFor('http://example.org/about/e%CC%81quipe.html', 'text/html');
    assert.match(decomposed, /^example\.org\/about\/équipe%h[0-9a-f]{12}\.html$/);
  });

  it('escapes characters file systems reject as %XX, and a literal % as %25', () => {
    assert.equal(localPathFor('http://example.org/a%3Cb%3E%22%7C%3F*c', null), 'example.org/a%3Cb%3E%22%7C%3F%2Ac');
    assert.equal(localPathFor('http://example.org/100%25.html', 'text/html'), 'example.org/100%25.html');
    assert.equal(localPathFor('http://example.org/a%5Cb', null), 'example.org/a%5Cb');
    assert.equal(localPathFor('http://example.org/name.', null), 'example.org/name%2E');
    assert.equal(localPathFor('http://example.org/name%20', null), 'example.org/name%20');
  });

  it('escapes Windows device names, with any extension and in any case', () => {
    for (const name of ['con', 'prn.html', 'aux.tar.gz', 'nul', 'com1', 'lpt9.txt', 'com%C2%B9']) {
      const local = localPathFor(`http://example.org/${name}/x`, null);
      assert.deepEqual(componentProblems(local.split('/')[1] ?? ''), [], name);
    }
    assert.equal(localPathFor('http://example.org/console/', null), 'example.org/console/index.html');
    assert.equal(localPathFor('http://example.org/conference.html', 'text/html'), 'example.org/conference.html');
  });

  it('cannot be led outside the mirror', () => {
    const attempts = [
      'http://example.org/../../etc/passwd',
      'http://example.org/%2e%2e/%2E%2E/etc/passwd',
      'http://example.org/..%2F..%2Fetc%2Fpasswd',
      'http://example.org/..%5C..%5Cwindows%5Cwin.ini',
      'http://example.org/..\\..\\windows',
      'http://example.org//etc/passwd',
      'http://example.org/C:%5Cwindows',
      'http://example.org/%2Fetc',
      'http://example.org/.%2E/x',
      'http://example.org/%00',
      'http://example.org/a/.../b',
    ];
    for (const url of attempts) {
      const local = localPathFor(url, 'text/html');
      assertSafeLocalPath(local, url);
      assert.equal(local.split('/')[0], 'example.org', url);
    }
  });

  it('names empty segments with a hash instead of dropping them', () => {
    const one = localPathFor('http://example.org/a//b', null);
    const two = localPathFor('http://example.org/a///b', null);
    assert.notEqual(one, localPathFor('http://example.org/a/b', null));
    assert.notEqual(one, two);
    assert.equal(one.split('/').length, 4);
  });

  it('gives names with case-folding letters a hash of their exact spelling', () => {
    const lower = localPathFor('http://example.org/about.html', 'text/html');
    const upper = localPathFor('http://example.org/About.html', 'text/html');
    assert.equal(lower, 'example.org/about.html');
    assert.match(upper, /^example\.org\/About%h[0-9a-f]{12}\.html$/);
    assert.notEqual(upper.toLowerCase(), lower.toLowerCase());
  });

  it('truncates over-long names, keeping the extension and uniqueness', () => {
    const a = localPathFor('http://example.org/' + 'é'.repeat(300) + '.pdf', 'application/pdf');
    const b = localPathFor('http://example.org/' + 'é'.repeat(299) + 'è.pdf', 'application/pdf');
    assert.notEqual(a, b);
    for (const local of [a, b]) {
      const name = local.split('/')[1] ?? '';
      assert.ok(Buffer.byteLength(name, 'utf8') <= 150, name);
      assert.ok(name.endsWith('.pdf'));
      assert.ok(!name.includes('\uFFFD'), 'a character was split');
    }
    const longHost = 'a'.repeat(63) + '.' + 'b'.repeat(63) + '.' + 'c'.repeat(63) + '.example';
    assertSafeLocalPath(localPathFor(`http://${longHost}/`, 'text/html'), longHost);
  });

  it('keeps host names with "_" apart from ports, and IPv6 hosts free of ":"', () => {
    const underscore = localPathFor('http://a_8080.example/', null).split('/')[0];
    const port = localPathFor('http://a.example:8080/', null).split('/')[0];
    assert.equal(port, 'a.example_8080');
    assert.notEqual(underscore, 'a_8080.example');
    const v6 = localPathFor('http://[::1]:8080/', null).split('/')[0] ?? '';
    assert.ok(!v6.includes(':') && v6.endsWith('_8080'));
  });

  it('rejects non-http URLs', () => {
    assert.throws(() => localPathFor('mailto:a@example.org', null));
    assert.throws(() => localPathFor('not a url', null));
  });
});

describe('hrefBetween', () => {
  const root = '/srv/my mirror#1';
  const targets = TRICKY_URLS.map((u) => localPathFor(u, 'text/html'));
  const pages = [
    localPathFor('http://example.org/', 'text/html'),
    localPathFor('http://example.org/About/Straße/%25h?q=1', 'text/html'),
    localPathFor('http://[::1]:8080/deep/a/b/c/', 'text/html'),
    'index.html',
  ];

  it('is an ASCII href that a browser resolves back to exactly the target file', () => {
    for (const from of pages) {
      for (const to of targets) {
        const href = hrefBetween(from, to);
        assert.match(href, /^[\x21-\x7E]+$/, href);
        const resolved = new URL(href, pathToFileURL(path.posix.join(root, from)));
        assert.equal(resolved.search + resolved.hash, '', href);
        assert.equal(decodeURIComponent(resolved.pathname), path.posix.join(root, to), `${from} -> ${to}`);
      }
    }
  });

  it('appends the fragment, escaped where needed', () => {
    const from = 'example.org/a/index.html';
    const to = 'example.org/b/c.html';
    const href = hrefBetween(from, to, 'section 2é');
    const resolved = new URL(href, pathToFileURL(path.posix.join(root, from)));
    assert.equal(decodeURIComponent(resolved.hash), '#section 2é');
    assert.equal(decodeURIComponent(resolved.pathname), path.posix.join(root, to));
    assert.equal(hrefBetween(from, to, 'top'), '../b/c.html#top');
    assert.equal(hrefBetween(from, to, ''), '../b/c.html');
  });

  it('links within a directory by bare name', () => {
    assert.equal(hrefBetween('example.org/a/x.html', 'example.org/a/y.html'), 'y.html');
    assert.equal(hrefBetween('example.org/a/x.html', 'example.org/a/x.html'), 'x.html');
  });

  it('climbs out of directories that only share a prefix of their name', () => {
    assert.equal(hrefBetween('example.org/ab/c/x.html', 'example.org/a/y.html'), '../../a/y.html');
    assert.equal(hrefBetween('index.html', 'example.org/a/y.html'), 'example.org/a/y.html');
    assert.equal(hrefBetween('example.org/a/b/x.html', 'example.org/a/b/c/d/y.html'), 'c/d/y.html');
  });
});

describe('resolveInside', () => {
  it('joins paths inside the root under POSIX rules', () => {
    assert.equal(resolveInside('/srv/mirror', 'a/b.html', path.posix), '/srv/mirror/a/b.html');
    assert.equal(resolveInside('/srv/mirror/', 'a\\..\\..\\b', path.posix), '/srv/mirror/a\\..\\..\\b');
  });

  it('joins paths inside the root under Windows rules', () => {
    assert.equal(resolveInside('C:\\mirror', 'a/b.html', path.win32), 'C:\\mirror\\a\\b.html');
  });

  it('throws for anything reaching outside the root under POSIX rules', () => {
    for (const rel of ['../x', 'a/../../x', '/etc/passwd', '', '.', 'a/..', '..', 'a\0b']) {
      assert.throws(() => resolveInside('/srv/mirror', rel, path.posix), JSON.stringify(rel));
    }
  });

  it('throws for anything reaching outside the root under Windows rules', () => {
    for (const rel of ['..\\x', 'a\\..\\..\\x', 'a/../../x', 'C:\\x', 'C:x', '\\\\server\\share\\x', '\\x', '/x', 'a:b', '']) {
      assert.throws(() => resolveInside('C:\\mirror', rel, path.win32), JSON.stringify(rel));
    }
  });
});
