import assert from 'node:assert/strict';
import { test } from 'node:test';
import { componentProblem, PortableNameChecker } from '../../../electron/engine/export/portableNames.js';

test('names every system accepts pass', () => {
  for (const n of ['index.html', 'a b.pdf', 'café.html', 'index%h1a2b3c4d5e6f.html', 'console.html', 'CONFIG', '.hidden']) {
    assert.equal(componentProblem(n), null, n);
  }
});

test('Windows device names are refused whatever their extension or case', () => {
  for (const n of ['CON', 'con.html', 'Nul.txt', 'COM1', 'lpt9.pdf', 'AUX ', 'prn.tar.gz']) {
    assert.match(componentProblem(n) ?? '', /device name|dot or space/, n);
  }
});

test('forbidden characters, control characters, trailing dots and spaces are refused', () => {
  for (const n of ['a<b', 'a>b', 'a:b', 'a"b', 'a|b', 'a?b', 'a*b', 'a\\b', 'a\u0001b', 'a\u007fb', 'name.', 'name ', '', '..']) {
    assert.notEqual(componentProblem(n), null, JSON.stringify(n));
  }
});

test('names differing only in case or Unicode normalisation collide, files and folders alike', () => {
  const c = new PortableNameChecker();
  c.add('site/About/index.html');
  c.add('site/about/team.html');
  c.add('site/caf\u00e9.html');
  c.add('site/cafe\u0301.html');
  c.add('site/ok.html');
  assert.deepEqual(
    c.problems.map((p) => p.path),
    ['site/about/team.html', 'site/cafe\u0301.html'],
  );
  assert.match(c.problems[0]!.reason, /'site\/about' differs from 'site\/About'/);
});

test('an unportable component is reported with the path it is in', () => {
  const c = new PortableNameChecker();
  c.add('top/dir/CON.html');
  assert.equal(c.problems.length, 1);
  assert.equal(c.problems[0]!.path, 'top/dir/CON.html');
  assert.match(c.problems[0]!.reason, /'CON\.html' is a reserved Windows device name/);
});

test('paths over 260 characters are reported, not refused', () => {
  const c = new PortableNameChecker();
  const long = Array.from({ length: 30 }, (_, i) => `folder${i}`).join('/') + '/index.html';
  c.add(long);
  c.add('short/index.html');
  assert.deepEqual(c.problems, []);
  assert.deepEqual(c.tooLong, [long]);
});
