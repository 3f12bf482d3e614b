/**
 * `harvest import` of files that overlap: a WARC, a byte-for-byte copy of it, a WACZ holding the
 * same records, and a later WARC that repeats one of them (written again, with a record id of its
 * own) beside a new page. Each capture is stored once, in the catalogue and in the archive's WARC
 * files; the records left out are counted; files that hold nothing new make no capture.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { CaptureSummary } from '../../shared/captures.js';
import type { QaReport } from '../../shared/report.js';
import { runHarvest } from '../helpers/harvestCli.js';

const ORIGIN = 'http://overlap.example.test';
const FIRST = '2023-04-01T09:00:00Z';
const LATER = '2024-04-01T09:00:00Z';
const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><a href="/a.html">a</a> <p>${title} words</p></body></html>`;

const response = (p: string, date: string) =>
  WARCRecord.create({ url: `${ORIGIN}${p}`, date, type: 'response', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html' }, warcVersion: 'WARC/1.1' }, [Buffer.from(page(p))]);

async function warc(date: string, records: WARCRecord[], gzip: boolean): Promise<Buffer> {
  const all = [WARCRecord.createWARCInfo({ date, filename: 'crawl.warc', warcVersion: 'WARC/1.1' }, { software: 'warcio.js', isPartOf: `crawl of ${date}` }), ...records];
  return Buffer.concat(await Promise.all(all.map(async (r) => Buffer.from(await WARCSerializer.serialize(r, { gzip })))));
}

/** The records of the archive's WARC files, as their WARC-Type and target. */
function recordsIn(archive: string): string[] {
  const dir = path.join(archive, 'warc');
  const text = readdirSync(dir)
    .map((f) => gunzipSync(readFileSync(path.join(dir, f))).toString('latin1'))
    .join('');
  return text
    .split(/(?=^WARC\/1\.\d\r\n)/m)
    .map((r) => `${/^WARC-Type: (\S+)/m.exec(r)?.[1] ?? '?'} ${/^WARC-Target-URI: (\S+)/m.exec(r)?.[1] ?? ''}`.trim())
    .sort();
}

describe('harvest import: records in several files are stored once', { timeout: 120_000 }, () => {
  let work: string;
  let archive: string;
  let stderr: string;
  let later: string;
  let cutAt: number;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-duplicates-'));
    const crawl = path.join(work, 'crawl.warc.gz');
    writeFileSync(crawl, await warc(FIRST, [response('/', FIRST), response('/a.html', FIRST), response('/b.html', FIRST)], true));
    const copy = path.join(work, 'copy.warc.gz');
    copyFileSync(crawl, copy);
    // A WACZ of the same records: Harvest's own export of the file imported alone.
    const alone = path.join(work, 'alone');
    assert.equal((await runHarvest(['import', crawl, '--out', alone, '--quiet'])).status, 0);
    const wacz = path.join(work, 'crawl.wacz');
    const e = await runHarvest(['export', alone, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(e.status, 0, e.stderr);
    later = path.join(work, 'later.warc');
    // /d.html twice in one file, each record with an id of its own (wget writes a redirect loop's
    // URL so): both are kept.
    const laterBytes = await warc(LATER, [response('/b.html', FIRST), response('/d.html', LATER), response('/d.html', LATER)], false);
    cutAt = laterBytes.length;
    // Its last record cut short: reported in the QA report with its file and offset.
    writeFileSync(later, Buffer.concat([laterBytes, Buffer.from(await WARCSerializer.serialize(response('/e.html', LATER))).subarray(0, 90)]));
    archive = path.join(work, 'archive');
    const r = await runHarvest(['import', crawl, copy, wacz, later, '--out', archive]);
    assert.equal(r.status, 0, r.stderr);
    stderr = r.stderr;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('catalogues each capture once', async () => {
    const cdx = await runHarvest(['cdx', archive, `${ORIGIN}/`, '--match', 'prefix', '--json']);
    assert.equal(cdx.status, 0, cdx.stderr);
    const lines = cdx.stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; timestamp: string });
    assert.deepEqual(
      lines.map((l) => `${l.url} ${l.timestamp}`).sort(),
      [`${ORIGIN}/ 20230401090000`, `${ORIGIN}/a.html 20230401090000`, `${ORIGIN}/b.html 20230401090000`, `${ORIGIN}/d.html 20240401090000`],
    );
  });

  it("keeps each record once in the archive's WARC files, and both of one file's look-alikes", () => {
    const records = recordsIn(archive);
    const responses = records.filter((r) => r.startsWith('response'));
    assert.deepEqual(responses, [`response ${ORIGIN}/`, `response ${ORIGIN}/a.html`, `response ${ORIGIN}/b.html`, `response ${ORIGIN}/d.html`, `response ${ORIGIN}/d.html`]);
    assert.equal(records.filter((r) => r === 'warcinfo').length, 2, "the first file's warcinfo (its copies left out) and the later file's");
  });

  it('makes no capture of files that hold nothing new', async () => {
    const captures = JSON.parse((await runHarvest(['captures', archive, '--json'])).stdout) as CaptureSummary[];
    assert.deepEqual(
      captures.map((c) => c.startedAt),
      [new Date(FIRST).toISOString(), new Date(LATER).toISOString()],
    );
    assert.equal(captures[1]!.counts.new, 1, 'the later file adds /d.html');
  });

  it('gives the import its section in the QA report: the files, their duplicates, the record skipped', async () => {
    const r = await runHarvest(['report', archive, '--format', 'json']);
    assert.equal(r.status, 0, r.stderr);
    const imported = (JSON.parse(r.stdout) as QaReport).imported!;
    assert.deepEqual(
      // A WACZ's file is named <wacz>!archive/<name>.
      imported.files.map((f) => [path.basename(f.file), f.records, f.duplicates > 0, f.capture]),
      [
        ['copy.warc.gz', 4, false, 1],
        ['crawl.warc.gz', 0, true, 1],
        ['import-20230401090000000-00001.warc.gz', 0, true, null],
        ['later.warc', 3, true, 2],
      ],
    );
    assert.equal(imported.skipped, 1);
    assert.deepEqual(imported.problems.map((p) => [p.file, p.offset]), [[later, cutAt]]);
    assert.match(imported.problems[0]!.why, /truncated/);
    const md = await runHarvest(['report', archive, '--format', 'md']);
    assert.match(md.stdout, /## Imported files/);
    assert.match(md.stdout, /## Records skipped on import[\s\S]*later\.warc \| \d+ \| a truncated record/);
  });

  it('says how many records were left out as duplicates', () => {
    // The copy's 4 records, the later file's repeated /b.html, and the WACZ's copies of the first file's.
    const m = /, (\d+) duplicate record\(s\) stored once/.exec(stderr);
    assert.ok(m, stderr);
    assert.ok(Number(m[1]) >= 4 + 1 + 3, stderr);
  });
});
