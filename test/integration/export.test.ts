import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportWacz } from '../../electron/engine/export/wacz.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { readMetadata } from '../../electron/engine/store/metadata.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { assertTilesFile, payloadOf, readRaw, sha256Base32, type RawRecord } from '../helpers/warcReadBack.js';
import { extractZip, type ExtractedEntry } from '../helpers/zipReadBack.js';

interface CdxjLine {
  urlkey: string;
  timestamp: string;
  url: string;
  status?: string;
  digest?: string;
  mime?: string;
  offset: string;
  length: string;
  filename: string;
}

function parseCdxj(text: string): CdxjLine[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [urlkey, timestamp] = l.split(' ', 2) as [string, string];
      return { urlkey, timestamp, ...(JSON.parse(l.slice(l.indexOf(' {') + 1)) as Omit<CdxjLine, 'urlkey' | 'timestamp'>) };
    });
}

const sha256Hex = (data: Buffer): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** Checks a record's digests against its own bytes, computed here without the writer's code. */
function assertDigests(r: RawRecord): void {
  const block = r.header('WARC-Block-Digest');
  if (block !== null) assert.equal(block, sha256Base32(r.block), `block digest of ${r.header('WARC-Record-ID')}`);
  if (r.type === 'response') {
    assert.equal(r.header('WARC-Payload-Digest'), sha256Base32(payloadOf(r.block)), `payload digest of ${r.header('WARC-Target-URI')}`);
  }
}

describe('harvest export', () => {
  let work: string;
  let site: BenchSite;
  let archiveDir: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-export-'));
    site = await startBenchSite({ pages: 150, workDir: work });
    archiveDir = path.join(work, 'archive');
    const crawl = await runHarvest(['crawl', `${site.origin}/`, '--out', archiveDir, '--max-pages', '80', '--quiet', '--delay-ms', '0']);
    assert.equal(crawl.status, 0, crawl.stderr);
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('writes a WACZ whose files, hashes, WARC records, index and pages check out with independent readers', async () => {
    const out = path.join(work, 'site.wacz');
    const run = await runHarvest(['export', archiveDir, '--format', 'wacz', '--out', out]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /writing/, 'a progress line is shown');
    const dir = path.join(work, 'wacz-extracted');
    const entries = await extractZip(out, dir);
    const byName = new Map<string, ExtractedEntry>(entries.map((e) => [e.name, e]));

    // The crawl's finished WARC files, byte for byte and stored (already gzipped).
    const warcNames = readdirSync(path.join(archiveDir, 'warc')).sort();
    assert.ok(warcNames.length > 0);
    for (const name of warcNames) {
      const entry = byName.get(`archive/${name}`);
      assert.ok(entry, `archive/${name} is in the WACZ`);
      assert.equal(entry.compressionMethod, 0);
      assert.ok(readFileSync(path.join(dir, 'archive', name)).equals(readFileSync(path.join(archiveDir, 'warc', name))));
    }
    for (const name of ['indexes/index.cdx', 'pages/pages.jsonl', 'datapackage.json', 'datapackage-digest.json']) {
      assert.ok(byName.has(name), `${name} is in the WACZ`);
    }

    // datapackage.json lists every other file with its real hash and size; the digest file hashes it.
    const pkgBytes = readFileSync(path.join(dir, 'datapackage.json'));
    const pkg = JSON.parse(pkgBytes.toString('utf8')) as {
      profile: string;
      wacz_version: string;
      title: string;
      mainPageUrl: string;
      software: string;
      created: string;
      resources: { name: string; path: string; hash: string; bytes: number }[];
    };
    assert.equal(pkg.profile, 'data-package');
    assert.equal(pkg.wacz_version, '1.1.1');
    assert.equal(pkg.mainPageUrl, `${site.origin}/`);
    assert.match(pkg.software, /^Harvest\//);
    assert.ok(!Number.isNaN(Date.parse(pkg.created)));
    assert.deepEqual(
      pkg.resources.map((r) => r.path).sort(),
      entries.map((e) => e.name).filter((n) => !n.startsWith('datapackage')).sort(),
    );
    for (const r of pkg.resources) {
      const data = readFileSync(path.join(dir, r.path));
      assert.equal(r.hash, sha256Hex(data), `hash of ${r.path}`);
      assert.equal(r.bytes, data.length, `size of ${r.path}`);
    }
    const digest = JSON.parse(readFileSync(path.join(dir, 'datapackage-digest.json'), 'utf8')) as { path: string; hash: string };
    assert.deepEqual(digest, { path: 'datapackage.json', hash: sha256Hex(pkgBytes) });

    // Every WARC record parses with warcio, digests hold, and records tile each file.
    const records = new Map<string, RawRecord>(); // by file:offset
    const captures = new Map<string, RawRecord[]>(); // response/revisit records by URI
    for (const name of warcNames) {
      const file = path.join(dir, 'archive', name);
      const recs = await readRaw(file);
      assertTilesFile(recs, file);
      for (const r of recs) {
        assertDigests(r);
        records.set(`${name}:${r.offset}`, r);
        if (r.type === 'response' || r.type === 'revisit') {
          const uri = r.header('WARC-Target-URI')!;
          captures.set(uri, [...(captures.get(uri) ?? []), r]);
        }
      }
    }

    // Every response in the crawl log has its record, whose payload is what the server sends.
    const fetched = listRecords(archiveDir).filter((r) => r.httpStatus !== null);
    assert.ok(fetched.length > 60);
    for (const r of fetched) {
      const recs = captures.get(r.url);
      assert.ok(recs && recs.length > 0, `a response or revisit record for ${r.url}`);
      assert.ok(recs.some((rec) => new RegExp(`^HTTP/1\\.1 ${r.httpStatus} `).test(rec.block.toString('latin1'))));
    }
    const samples = fetched.filter((r) => r.state === 'archived').slice(0, 40);
    for (const r of samples) {
      const body = Buffer.from(await (await fetch(r.url)).arrayBuffer());
      const recs = captures.get(r.url)!;
      assert.ok(recs.some((rec) => rec.header('WARC-Payload-Digest') === sha256Base32(body)), `payload digest of ${r.url}`);
    }

    // The CDXJ index is sorted, finds every archived URL, and points at the right records.
    const cdxj = parseCdxj(readFileSync(path.join(dir, 'indexes', 'index.cdx'), 'utf8'));
    const keys = cdxj.map((l) => `${l.urlkey} ${l.timestamp}`);
    assert.deepEqual(keys, [...keys].sort());
    const byUrl = new Map<string, CdxjLine[]>();
    for (const l of cdxj) byUrl.set(l.url, [...(byUrl.get(l.url) ?? []), l]);
    for (const r of fetched) {
      const hits = byUrl.get(r.url);
      assert.ok(hits && hits.length > 0, `index has ${r.url}`);
      for (const hit of hits) {
        const rec = records.get(`${hit.filename}:${hit.offset}`);
        assert.ok(rec, `index entry for ${r.url} points at a record`);
        assert.equal(rec.header('WARC-Target-URI'), r.url);
        assert.equal(rec.length, Number(hit.length));
        assert.equal(hit.digest, rec.header('WARC-Payload-Digest'), `digest of ${r.url}, algorithm included`);
      }
    }
    assert.equal(cdxj.length, [...captures.values()].reduce((n, c) => n + c.length, 0));

    // pages.jsonl: the header, the seed first, then every archived HTML page with title and ts.
    const pages = readFileSync(path.join(dir, 'pages', 'pages.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { format?: string; url: string; title?: string; ts: string });
    assert.equal(pages[0]!.format, 'json-pages-1.0');
    assert.equal(pages[1]!.url, `${site.origin}/`);
    const html = fetched.filter((r) => r.state === 'archived' && /^text\/html/.test(r.contentType ?? ''));
    assert.deepEqual(new Set(pages.slice(1).map((p) => p.url)), new Set(html.map((r) => r.url)));
    assert.ok(pages.slice(1).every((p) => !Number.isNaN(Date.parse(p.ts))));
    assert.ok(pages.slice(1).filter((p) => p.title).length >= html.length / 2, 'pages carry their titles');
  });

  it('writes the WARC files as one valid .warc.gz, opened by a warcinfo record with the description', async () => {
    const out = path.join(work, 'site.warc.gz');
    const described = await runHarvest(['metadata', archiveDir, '--set', 'title=Northfield web, 2026', '--set', 'subject=universities,archives']);
    assert.equal(described.status, 0, described.stderr);
    const run = await runHarvest(['export', archiveDir, '--format', 'warc', '--out', out]);
    assert.equal(run.status, 0, run.stderr);
    const recs = await readRaw(out);
    assertTilesFile(recs, out);
    for (const r of recs) assertDigests(r);
    let expected = 0;
    for (const name of readdirSync(path.join(archiveDir, 'warc'))) {
      expected += (await readRaw(path.join(archiveDir, 'warc', name))).length;
    }
    assert.equal(recs.length, expected + 1);
    const info = recs[0]!;
    assert.equal(info.type, 'warcinfo');
    assert.equal(info.header('WARC-Filename'), 'site.warc.gz');
    const lines = info.block.toString('utf8').split('\r\n');
    assert.ok(lines.includes('title: Northfield web, 2026'), lines.join(' | '));
    assert.ok(lines.includes('subject: universities') && lines.includes('subject: archives'));
    assert.ok(lines.includes('isPartOf: Northfield web, 2026'));
    assert.ok(!existsSync(`${out}.partial`));
  });

  it('refuses an existing output, an archive in use, an unfinished WARC file and an unknown format (exit 2)', async () => {
    const existing = path.join(work, 'existing.wacz');
    writeFileSync(existing, 'keep me');
    const refused = await runHarvest(['export', archiveDir, '--format', 'wacz', '--out', existing]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /already exists/);
    assert.equal(readFileSync(existing, 'utf8'), 'keep me');

    const notArchive = await runHarvest(['export', work, '--format', 'wacz', '--out', path.join(work, 'x.wacz')]);
    assert.equal(notArchive.status, 2);
    assert.match(notArchive.stderr, /not a Harvest archive/);

    const held = Archive.open(archiveDir);
    try {
      // Held for writing, as a running crawl holds it: an export would read files that change under it.
      const locked = await runHarvest(['export', archiveDir, '--format', 'wacz', '--out', path.join(work, 'locked.wacz')]);
      assert.equal(locked.status, 2);
      assert.match(locked.stderr, /already being written by another process/);
    } finally {
      held.close();
    }

    const interrupted = path.join(work, 'interrupted');
    cpSync(archiveDir, interrupted, { recursive: true });
    const warc = readdirSync(path.join(interrupted, 'warc'))[0]!;
    renameSync(path.join(interrupted, 'warc', warc), path.join(interrupted, 'warc', `${warc}.open`));
    const torn = await runHarvest(['export', interrupted, '--format', 'warc', '--out', path.join(work, 'torn.warc.gz')]);
    assert.equal(torn.status, 2);
    assert.match(torn.stderr, /unfinished WARC file/);
    assert.ok(!existsSync(path.join(work, 'torn.warc.gz')));

    const zip = await runHarvest(['export', archiveDir, '--format', 'tar', '--out', path.join(work, 'x.tar')]);
    assert.equal(zip.status, 2);
  });

  it('leaves nothing under the final name when aborted midway', async () => {
    const out = path.join(work, 'aborted.wacz');
    const archive = Archive.open(archiveDir, { readonly: true });
    const abort = new AbortController();
    let wrote = false;
    try {
      await assert.rejects(
        exportWacz(archive, out, {
          metadata: readMetadata(archive.catalogue),
          signal: abort.signal,
          onProgress: (p) => {
            if (p.phase === 'writing' && p.doneBytes > 0) {
              wrote = true;
              abort.abort();
            }
          },
        }),
        (e: Error) => e.name === 'AbortError',
      );
    } finally {
      archive.close();
    }
    assert.ok(wrote, 'the abort came while the zip was being written');
    assert.ok(!existsSync(out));
    assert.ok(!existsSync(`${out}.partial`));
    assert.deepEqual(
      readdirSync(work).filter((n) => n.startsWith('.harvest-export-')),
      [],
      'working files are removed',
    );
    assert.ok(statSync(archiveDir).isDirectory());
  });
});
