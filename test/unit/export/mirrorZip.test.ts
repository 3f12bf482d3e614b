import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parseJob } from '../../../shared/job.js';
import { DublinCoreSchema } from '../../../shared/metadata.js';
import { OutputExistsError } from '../../../electron/engine/export/atomicOutput.js';
import { exportMirrorZip } from '../../../electron/engine/export/mirrorZip.js';
import { UnportableNamesError } from '../../../electron/engine/export/portableNames.js';
import { Archive } from '../../../electron/engine/store/archive.js';
import { extractZip } from '../../helpers/zipFiles.js';

const dir = mkdtempSync(path.join(tmpdir(), 'harvest-mirrorzip-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const metadata = DublinCoreSchema.parse({ title: 'Test site', subject: ['tests'] });

function archiveWith(name: string, files: Record<string, string>): Archive {
  const a = Archive.create(path.join(dir, name), parseJob({ seeds: ['http://127.0.0.1:9/'] }));
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(a.mirror.root, ...rel.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return a;
}

test('the ZIP holds the mirror under one folder with an index.html and _about.txt, and refuses to overwrite', async () => {
  const a = archiveWith('plain', { '127.0.0.1_9/index.html': '<p>home</p>', '127.0.0.1_9/img/a.png': 'png' });
  try {
    const out = path.join(dir, 'plain-site.zip');
    const r = await exportMirrorZip(a, out, { metadata });
    assert.equal(r.files, 4);
    const names = await extractZip(out, path.join(dir, 'plain-x'));
    assert.deepEqual(names.sort(), [
      'plain-site/127.0.0.1_9/img/a.png',
      'plain-site/127.0.0.1_9/index.html',
      'plain-site/_about.txt',
      'plain-site/index.html',
    ]);
    const about = readFileSync(path.join(dir, 'plain-x', 'plain-site', '_about.txt'), 'utf8');
    assert.match(about, /^Test site\n/);
    assert.match(about, /Seeds: +http:\/\/127\.0\.0\.1:9\//);
    assert.match(about, /Subject: tests/);
    // The mirror has no entry page yet (never finished): a stand-in was added.
    assert.match(readFileSync(path.join(dir, 'plain-x', 'plain-site', 'index.html'), 'utf8'), /<!DOCTYPE html>/);
    await assert.rejects(exportMirrorZip(a, out, { metadata }), OutputExistsError);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.partial')), []);
  } finally {
    a.close();
  }
});

test('names that would not survive on Windows or macOS fail the export, listing each, and leave no file', async () => {
  const a = archiveWith('bad', { 'h/CON.html': 'x', 'h/Readme.txt': 'x', 'h/README.txt': 'y', 'h/ok.html': 'z' });
  try {
    const out = path.join(dir, 'bad.zip');
    await assert.rejects(exportMirrorZip(a, out, { metadata }), (e: unknown) => {
      assert.ok(e instanceof UnportableNamesError);
      assert.deepEqual(e.names.map((n) => n.path).sort(), ['bad/h/CON.html', 'bad/h/Readme.txt']);
      assert.match(e.message, /CON\.html/);
      return true;
    });
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(`${out}.partial`), false);
  } finally {
    a.close();
  }
});

test('an aborted export leaves neither the ZIP nor its partial file', async () => {
  const a = archiveWith('abort', { 'h/index.html': 'x'.repeat(100_000) });
  try {
    const out = path.join(dir, 'abort.zip');
    const ctl = new AbortController();
    ctl.abort();
    await assert.rejects(exportMirrorZip(a, out, { metadata, signal: ctl.signal }), { name: 'AbortError' });
    assert.equal(existsSync(out), false);
    assert.equal(existsSync(`${out}.partial`), false);
  } finally {
    a.close();
  }
});

test("the ZIP's index.html is written afresh from the description given, not copied from a stale mirror", async () => {
  const a = archiveWith('stale', { 'index.html': '<title>Untitled harvest</title>', '127.0.0.1_9/index.html': '<p>home</p>' });
  try {
    const out = path.join(dir, 'stale.zip');
    const described = DublinCoreSchema.parse({ title: 'Law school website', description: 'As of <2026>' });
    const r = await exportMirrorZip(a, out, { metadata: described });
    assert.equal(r.files, 3);
    const names = await extractZip(out, path.join(dir, 'stale-x'));
    assert.equal(names.filter((n) => n === 'stale/index.html').length, 1);
    const html = readFileSync(path.join(dir, 'stale-x', 'stale', 'index.html'), 'utf8');
    assert.match(html, /<title>Law school website<\/title>/);
    assert.match(html, /<p>As of &#60;2026&#62;<\/p>/);
    assert.doesNotMatch(html, /Untitled/);
  } finally {
    a.close();
  }
});
