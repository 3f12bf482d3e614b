import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseJob } from '../../shared/job.js';
import { DublinCoreSchema } from '../../shared/metadata.js';
import { Crawl } from '../../electron/engine/crawl/crawl.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { answerQuery } from '../../electron/host/archiveQueries.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { extractZip } from '../helpers/zipFiles.js';

const TITLE = 'Northfield University website, spring 2026';
const DESCRIPTION = 'The public website of Northfield University & its library.';

describe('the Dublin Core description reaches every output', () => {
  let work: string;
  let server: Server;
  let archiveDir: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-described-'));
    server = createServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(404).end();
      // The seed redirects, as sites do: its title is the page's it leads to.
      else if (req.url === '/start') res.writeHead(301, { Location: '/' }).end();
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title> Northfield University — Home </title><a href="/a.html">A</a>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    const origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    archiveDir = path.join(work, 'archive');
    const archive = Archive.create(archiveDir, parseJob({ seeds: [`${origin}/start`] }));
    try {
      assert.equal(await new Crawl(archive).run(), 'finished');
    } finally {
      archive.close();
    }
    const set = await runHarvest([
      'metadata', archiveDir,
      '--set', `title=${TITLE}`,
      '--set', `description=${DESCRIPTION}`,
      '--set', 'creator=University Archives',
      '--set', 'publisher=Northfield University',
      '--set', 'contributor=Web team, Library systems',
      '--set', 'rights=https://creativecommons.org/licenses/by/4.0/',
      '--set', 'date=2026-03/2026-05',
      '--set', 'identifier=NU-WA-0042',
      '--set', 'type=Collection',
      '--set', 'language=en',
    ]);
    assert.equal(set.status, 0, set.stderr);
  });
  after(() => {
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("rewrites the mirror's index.html with the title, description and the rest", () => {
    const html = readFileSync(path.join(archiveDir, 'mirror', 'index.html'), 'utf8');
    assert.match(html, /<title>Northfield University website, spring 2026<\/title>/);
    assert.match(html, /<h1>Northfield University website, spring 2026<\/h1>/);
    assert.match(html, /<p>The public website of Northfield University &#38; its library\.<\/p>/);
    assert.match(html, /<dt>Identifier<\/dt><dd>NU-WA-0042<\/dd>/);
    assert.match(html, /<meta name="DC.contributor" content="Library systems">/);
    assert.doesNotMatch(html, /Untitled harvest/);
  });

  it("puts it in the ZIP's index.html and _about.txt", async () => {
    const zip = path.join(work, 'site.zip');
    const r = await runHarvest(['export', archiveDir, '--format', 'zip', '--out', zip, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    const out = path.join(work, 'unzipped');
    await extractZip(zip, out);
    assert.match(readFileSync(path.join(out, 'site', 'index.html'), 'utf8'), /<h1>Northfield University website, spring 2026<\/h1>/);
    const about = readFileSync(path.join(out, 'site', '_about.txt'), 'utf8');
    assert.equal(about.split('\n')[0], TITLE);
    assert.match(about, /^Contributor: Web team, Library systems$/m);
    assert.match(about, /^Date: 2026-03\/2026-05$/m);
  });

  it('maps it onto datapackage.json’s own fields beside the dublinCore block', async () => {
    const wacz = path.join(work, 'site.wacz');
    const r = await runHarvest(['export', archiveDir, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    const out = path.join(work, 'wacz');
    await extractZip(wacz, out);
    const pkg = JSON.parse(readFileSync(path.join(out, 'datapackage.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(pkg.title, TITLE);
    assert.equal(pkg.description, DESCRIPTION);
    assert.deepEqual(pkg.licenses, [{ path: 'https://creativecommons.org/licenses/by/4.0/', title: 'https://creativecommons.org/licenses/by/4.0/' }]);
    assert.deepEqual(pkg.contributors, [
      { title: 'University Archives', role: 'author' },
      { title: 'Northfield University', role: 'publisher' },
      { title: 'Web team', role: 'contributor' },
      { title: 'Library systems', role: 'contributor' },
    ]);
    const archive = Archive.open(archiveDir, { readonly: true });
    try {
      assert.equal(pkg.created, archive.catalogue.getMeta('started_at'));
    } finally {
      archive.close();
    }
    assert.ok(Date.parse(pkg.modified as string) >= Date.parse(pkg.created as string));
    const dc = pkg.dublinCore as Record<string, unknown>;
    assert.equal(dc.identifier, 'NU-WA-0042');
    assert.deepEqual(dc.language, ['en']);
  });

  it("writes the front door of a bag's mirror from the description", async () => {
    const bag = path.join(work, 'site-bag');
    const r = await runHarvest(['export', archiveDir, '--format', 'bagit', '--include-mirror', '--out', bag, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(readFileSync(path.join(bag, 'data', 'mirror', 'index.html'), 'utf8'), /<h1>Northfield University website, spring 2026<\/h1>/);
    assert.match(readFileSync(path.join(bag, 'bag-info.txt'), 'utf8'), /^DC-Identifier: NU-WA-0042$/m);
    assert.equal((await runHarvest(['verify', bag])).status, 0);
  });

  it("suggests the seed page's title and the crawl's day for the editor to prefill", () => {
    const archive = Archive.open(archiveDir, { readonly: true });
    try {
      const day = archive.catalogue.getMeta('started_at')!.slice(0, 10);
      assert.deepEqual(answerQuery(archive, { kind: 'suggestMetadata' }), { title: 'Northfield University — Home', date: day });
    } finally {
      archive.close();
    }
  });

  it('rewrites the front door when the app saves the description', () => {
    const archive = Archive.open(archiveDir);
    try {
      answerQuery(archive, { kind: 'setMetadata', metadata: DublinCoreSchema.parse({ title: 'Saved from the app' }) });
    } finally {
      archive.close();
    }
    assert.match(readFileSync(path.join(archiveDir, 'mirror', 'index.html'), 'utf8'), /<h1>Saved from the app<\/h1>/);
  });

  it('refuses a date that is not EDTF and names the bad language tag', async () => {
    const r = await runHarvest(['metadata', archiveDir, '--set', 'date=last spring', '--set', 'language=en,english']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /date: "last spring" is not an ISO 8601 \/ EDTF date/);
    assert.match(r.stderr, /language: "english" is not a BCP 47 language tag/);
  });
});
