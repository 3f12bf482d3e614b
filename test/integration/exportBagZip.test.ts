import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bagitExporter } from '../../electron/engine/export/bagit.js';
import { parseBagInfo } from '../../electron/engine/export/bagInfo.js';
import { exportMirrorZip } from '../../electron/engine/export/mirrorZip.js';
import { verify } from '../../electron/engine/export/verify.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { readMetadata } from '../../electron/engine/store/metadata.js';
import { CLI, linkcheck, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { extractZip, stubMakeWacz } from '../helpers/zipFiles.js';

const PAGES = 150;

function harvest(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 240_000 });
}

const sha512File = (file: string): string => createHash('sha512').update(readFileSync(file)).digest('hex');

/** Reads a manifest the plain way, independently of the exporter's own parser. */
function manifestOf(file: string): Map<string, string> {
  return new Map(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const m = /^([0-9a-f]+)\s+(.*)$/.exec(l)!;
        // RFC 8493 2.1.3: CR, LF and % in a path are percent-encoded.
        const rel = m[2]!.replace(/%(25|0A|0D)/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
        return [rel, m[1]!] as [string, string];
      }),
  );
}

describe('ZIP and BagIt exports of a crawled bench site, and harvest verify', () => {
  let work: string;
  let site: BenchSite;
  let archiveDir: string;
  let zipFile: string;
  let bagDir: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-export-'));
    site = await startBenchSite({ pages: PAGES, workDir: work });
    archiveDir = path.join(work, 'archive');
    const crawl = harvest('crawl', `${site.origin}/`, '--out', archiveDir, '--quiet', '--delay-ms', '0');
    assert.equal(crawl.status, 0, crawl.stderr);
    zipFile = path.join(work, 'site.zip');
    bagDir = path.join(work, 'site-bag');
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('edits the Dublin Core metadata from the command line, refusing bad values', () => {
    const bad = harvest('metadata', archiveDir, '--set', 'contact-email=not an email', '--set', 'language=english!', '--set', 'language=');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /contactEmail: must be an email address/);
    assert.match(bad.stderr, /language: "english!" is not a BCP 47 language tag/);
    const set = harvest(
      'metadata', archiveDir,
      '--set', 'title=Example University website',
      '--set', 'subject=universities, libraries',
      '--set', 'subject=archives',
      '--set', 'language=en',
      '--set', 'sourceOrganization=Example University Archives',
      '--set', 'contact-email=archives@example.edu',
      '--set', `description=${'A harvest of the example university website. '.repeat(4).trim()}`,
    );
    assert.equal(set.status, 0, set.stderr);
    const shown = harvest('metadata', archiveDir, '--json');
    assert.equal(shown.status, 0, shown.stderr);
    const m = JSON.parse(shown.stdout) as { title: string; subject: string[]; contactEmail: string };
    assert.equal(m.title, 'Example University website');
    assert.deepEqual(m.subject, ['universities', 'libraries', 'archives']);
    assert.equal(m.contactEmail, 'archives@example.edu');
  });

  it('refuses to touch the metadata while the archive is held by a crawl', () => {
    const held = Archive.open(archiveDir);
    try {
      const r = harvest('metadata', archiveDir, '--set', 'title=x');
      assert.equal(r.status, 2);
      assert.match(r.stderr, /in use by a running crawl/);
    } finally {
      held.close();
    }
  });

  it('exports a ZIP that unpacks into a site whose links all work offline', async () => {
    const archive = Archive.open(archiveDir, { readonly: true });
    try {
      const r = await exportMirrorZip(archive, zipFile, { metadata: readMetadata(archive.catalogue) });
      assert.ok(r.bytes > 0);
    } finally {
      archive.close();
    }
    const out = path.join(work, 'unzipped');
    const names = await extractZip(zipFile, out);
    assert.ok(names.every((n) => n.startsWith('site/')), names.find((n) => !n.startsWith('site/')));
    assert.ok(existsSync(path.join(out, 'site', 'index.html')));
    assert.match(readFileSync(path.join(out, 'site', '_about.txt'), 'utf8'), /Example University website/);
    const lc = linkcheck(path.join(out, 'site'), path.join(site.dir, 'manifest.json'), path.join(work, 'lc.json'));
    assert.equal(lc.coverage.pages, lc.coverage.pagesTotal, lc.coverage.missingExamples.join(' '));
    assert.equal(lc.links.brokenArchivable, 0, lc.links.examples.broken.join('\n'));
    assert.equal(lc.links.escapedArchivable, 0, lc.links.examples.escaped.join('\n'));
  });

  it('exports a bag that verifies, by harvest verify and by an independent reading of its manifests', async () => {
    const archive = Archive.open(archiveDir, { readonly: true });
    try {
      await bagitExporter(stubMakeWacz)(archive, bagDir, { metadata: readMetadata(archive.catalogue), includeMirror: true });
    } finally {
      archive.close();
    }
    assert.equal(existsSync(`${bagDir}.partial`), false);
    assert.equal(readFileSync(path.join(bagDir, 'bagit.txt'), 'utf8'), 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');

    const payload = manifestOf(path.join(bagDir, 'manifest-sha512.txt'));
    assert.ok(payload.has('data/site-bag.wacz'));
    assert.ok(payload.has('data/mirror/index.html'));
    let bytes = 0;
    for (const [rel, sum] of payload) {
      const file = path.join(bagDir, ...rel.split('/'));
      assert.equal(sha512File(file), sum, rel);
      bytes += readFileSync(file).length;
    }
    const tags = manifestOf(path.join(bagDir, 'tagmanifest-sha512.txt'));
    assert.deepEqual([...tags.keys()].sort(), ['bag-info.txt', 'bagit.txt', 'manifest-sha512.txt']);
    for (const [rel, sum] of tags) assert.equal(sha512File(path.join(bagDir, rel)), sum, rel);

    const info = parseBagInfo(readFileSync(path.join(bagDir, 'bag-info.txt'), 'utf8'));
    const value = (label: string): string[] => info.filter(([l]) => l === label).map(([, v]) => v);
    assert.deepEqual(value('Payload-Oxum'), [`${bytes}.${payload.size}`]);
    assert.deepEqual(value('DC-Title'), ['Example University website']);
    assert.deepEqual(value('DC-Subject'), ['universities', 'libraries', 'archives']);
    assert.deepEqual(value('Source-Organization'), ['Example University Archives']);
    assert.deepEqual(value('Harvest-Seed'), [`${site.origin}/`]);
    assert.deepEqual(value('Harvest-Robots-Policy'), ['robots.txt obeyed']);
    assert.equal(value('Harvest-Crawl-End').length, 1);
    assert.ok(readFileSync(path.join(bagDir, 'bag-info.txt'), 'utf8').split('\n').every((l) => l.length <= 79));

    const r = harvest('verify', bagDir);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^valid bag/);
    const wacz = harvest('verify', path.join(bagDir, 'data', 'site-bag.wacz'));
    assert.equal(wacz.status, 0, wacz.stdout + wacz.stderr);
  });

  it('refuses to overwrite an existing export', async () => {
    const archive = Archive.open(archiveDir, { readonly: true });
    try {
      const opts = { metadata: readMetadata(archive.catalogue) };
      await assert.rejects(bagitExporter(stubMakeWacz)(archive, bagDir, opts), /already exists/);
      await assert.rejects(exportMirrorZip(archive, zipFile, opts), /already exists/);
    } finally {
      archive.close();
    }
  });

  it('names a payload file with one byte changed', () => {
    const bag = path.join(work, 'bag-corrupt');
    cpSync(bagDir, bag, { recursive: true });
    const victim = path.join(bag, 'data', 'mirror', 'index.html');
    const b = readFileSync(victim);
    b[10] = b[10]! ^ 0x20;
    writeFileSync(victim, b);
    const r = harvest('verify', bag);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^INVALID bag/);
    assert.match(r.stdout, /^altered\tdata\/mirror\/index\.html\t/m);
    assert.equal(r.stdout.trim().split('\n').length, 2, r.stdout);
  });

  it('reports a deleted file as missing and an added one as unlisted', async () => {
    const bag = path.join(work, 'bag-edited');
    cpSync(bagDir, bag, { recursive: true });
    rmSync(path.join(bag, 'data', 'site-bag.wacz'));
    writeFileSync(path.join(bag, 'data', 'mirror', 'notes.txt'), 'added later');
    const report = await verify(bag);
    assert.equal(report.ok, false);
    const byKind = (kind: string): string[] => report.problems.filter((p) => p.kind === kind).map((p) => p.path);
    assert.deepEqual(byKind('missing'), ['data/site-bag.wacz']);
    assert.deepEqual(byKind('unlisted'), ['data/mirror/notes.txt']);
    assert.deepEqual(byKind('altered'), []);
    // The file count is unchanged but the byte count is not.
    assert.match(report.problems.find((p) => p.kind === 'invalid')?.detail ?? '', /Payload-Oxum/);
    const r = harvest('verify', bag, '--json');
    assert.equal(r.status, 1);
  });

  it('notices an edited tag file', () => {
    const bag = path.join(work, 'bag-tag');
    cpSync(bagDir, bag, { recursive: true });
    appendFileSync(path.join(bag, 'bag-info.txt'), 'Internal-Sender-Description: edited\n');
    const r = harvest('verify', bag);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^altered\tbag-info\.txt\t/m);
  });

  it('exits 2 for what is neither a bag nor a WACZ', () => {
    assert.equal(harvest('verify', archiveDir).status, 2);
    assert.equal(harvest('verify').status, 2);
    assert.deepEqual(readdirSync(work).filter((n) => n.endsWith('.partial')), []);
  });
});
