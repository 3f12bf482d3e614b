import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatManifestLine, ManifestSyntaxError, parseManifest } from '../../../electron/engine/export/manifest.js';

const SUM = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

test('a manifest line is the checksum, whitespace and the path relative to the bag', () => {
  assert.equal(formatManifestLine({ checksum: SUM, path: 'data/site/index.html' }), `${SUM}  data/site/index.html\n`);
});

test('CR, LF and % in a path are percent-encoded, and decoded back', () => {
  const path = 'data/100%\nsure\r.txt';
  const line = formatManifestLine({ checksum: SUM, path });
  assert.equal(line, `${SUM}  data/100%25%0Asure%0D.txt\n`);
  assert.deepEqual(parseManifest(line, 'm'), [{ checksum: SUM, path }]);
});

test('paths with spaces survive, checksums are read case-insensitively, blank lines skipped', () => {
  const text = `${SUM.toUpperCase()}  data/a file.pdf\r\n\r\n${SUM}\tdata/b.html\n`;
  assert.deepEqual(parseManifest(text, 'm'), [
    { checksum: SUM, path: 'data/a file.pdf' },
    { checksum: SUM, path: 'data/b.html' },
  ]);
});

test('a line without a checksum is a syntax error naming the file and line', () => {
  assert.throws(() => parseManifest(`${SUM}  data/a\nnot a checksum line\n`, 'manifest-sha256.txt'), (e: unknown) => {
    assert.ok(e instanceof ManifestSyntaxError);
    assert.match(e.message, /manifest-sha256\.txt line 2/);
    return true;
  });
});
