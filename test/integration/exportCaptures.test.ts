import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CaptureSummary } from '../../shared/captures.js';
import { parseBagInfo } from '../../electron/engine/export/bagInfo.js';
import { CLI, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';
import { extractZip } from '../helpers/zipReadBack.js';

interface CdxLine {
  urlkey: string;
  timestamp: string;
  url: string;
  mime: string;
  status?: string;
  filename: string;
}

interface PageLine {
  url: string;
  ts: string;
}

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 120_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** Exports the archive as WACZ (with `extra` options), checks it with `harvest verify --deep`, and unpacks it. */
async function exportWacz(archive: string, work: string, name: string, extra: string[] = []): Promise<string> {
  const wacz = path.join(work, `${name}.wacz`);
  const run = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet', ...extra]);
  assert.equal(run.status, 0, run.stderr);
  const verify = cli('verify', wacz, '--deep');
  assert.equal(verify.status, 0, `harvest verify --deep: ${verify.stdout}${verify.stderr}`);
  const dir = path.join(work, name);
  await extractZip(wacz, dir);
  return dir;
}

/** When datapackage.json says the exported harvest began. */
function createdOf(dir: string): string {
  return (JSON.parse(readFileSync(path.join(dir, 'datapackage.json'), 'utf8')) as { created: string }).created;
}

function cdxjOf(dir: string): CdxLine[] {
  return readFileSync(path.join(dir, 'indexes', 'index.cdx'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [urlkey, timestamp] = l.split(' ', 2) as [string, string];
      return { urlkey, timestamp, ...(JSON.parse(l.slice(l.indexOf('{'))) as Omit<CdxLine, 'urlkey' | 'timestamp'>) };
    });
}

function pagesOf(dir: string): PageLine[] {
  const [header, ...lines] = readFileSync(path.join(dir, 'pages', 'pages.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
  assert.equal((JSON.parse(header!) as { format: string }).format, 'json-pages-1.0');
  return lines.map((l) => JSON.parse(l) as PageLine);
}

async function recordsOf(dir: string): Promise<Map<string, RawRecord[]>> {
  const out = new Map<string, RawRecord[]>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.warc.gz')).sort()) out.set(f, await readRaw(path.join(dir, f)));
  return out;
}

/** Page times are WARC-Dates, whole seconds: compared with a capture's start and end to the second. */
const toSecond = (t: string): string => t.slice(0, 19);
const within = (ts: string, c: CaptureSummary): boolean => toSecond(ts) >= toSecond(c.startedAt) && toSecond(ts) <= toSecond(c.finishedAt ?? '9999');

describe('exports of an archive with two captures', () => {
  let work: string;
  let site: BenchSite;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-export-captures-'));
    site = await startBenchSite({ pages: 150, workDir: work, validators: true, live: true });
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('carry every capture, or one with --capture and the originals its revisits refer to', async () => {
    const archive = path.join(work, 'archive');
    const crawl = ['--max-depth', '2', '--exclude', '[?]', '--quiet', '--delay-ms', '0'];
    const first = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--connections', '4', ...crawl]);
    assert.equal(first.status, 0, first.stderr);
    const warcDir = path.join(archive, 'warc');
    const firstFiles = new Set(readdirSync(warcDir));

    // Edit one archived page's text and delete another.
    const archived = new Map(listRecords(archive).filter((r) => r.state === 'archived').map((r) => [r.url, r]));
    const [edited, deleted] = site.manifest.pages
      .filter((p) => p.depth === 2 && (p.charset ?? 'utf-8') === 'utf-8' && p.file.endsWith('.html') && archived.has(site.origin + p.url))
      .sort((a, b) => a.id.localeCompare(b.id));
    assert.ok(edited && deleted, 'two archived pages at depth 2');
    const editedUrl = site.origin + edited.url;
    const editedFile = path.join(site.dir, edited.file);
    writeFileSync(editedFile, readFileSync(editedFile, 'utf8').replace('</body>', '<p>A paragraph added for the second capture.</p></body>'));
    unlinkSync(path.join(site.dir, deleted.file));
    const second = await runHarvest(['recrawl', archive, '--quiet']);
    assert.equal(second.status, 0, second.stderr);
    const captures = JSON.parse(cli('captures', archive, '--json').stdout) as CaptureSummary[];
    assert.deepEqual(captures.map((c) => c.id), [1, 2]);
    const [c1, c2] = captures as [CaptureSummary, CaptureSummary];
    const secondFiles = readdirSync(warcDir).filter((f) => f.endsWith('.warc.gz') && !firstFiles.has(f));
    assert.ok(secondFiles.length > 0);

    // Every capture: both versions of the edited page in the index and the page list, each with its own time.
    const all = await exportWacz(archive, work, 'all');
    const cdx = cdxjOf(all);
    const editedLines = cdx.filter((l) => l.url === editedUrl);
    assert.equal(editedLines.length, 2, JSON.stringify(cdx.filter((l) => l.url.includes(edited.url))));
    assert.deepEqual(editedLines.map((l) => l.mime), ['text/html', 'text/html']);
    assert.notEqual(editedLines[0]!.timestamp, editedLines[1]!.timestamp);
    // An unchanged page is found in both captures too: its response, then the second capture's revisit.
    const unchangedUrl = `${site.origin}/`;
    assert.deepEqual(cdx.filter((l) => l.url === unchangedUrl).map((l) => l.mime), ['text/html', 'warc/revisit']);
    const pages = pagesOf(all);
    const editedPages = pages.filter((p) => p.url === editedUrl);
    assert.equal(editedPages.length, 2);
    // The re-crawl may fetch the page within the second the first capture ended: times in order.
    const [firstTs, secondTs] = editedPages.map((p) => p.ts).sort() as [string, string];
    assert.ok(within(firstTs, c1), 'first capture time');
    assert.ok(within(secondTs, c2), 'second capture time');
    assert.equal(pages.filter((p) => p.url === unchangedUrl).length, 2);
    assert.equal(pages.filter((p) => p.url === site.origin + deleted.url).length, 1, 'a deleted page is listed in the first capture only');

    // --capture 2: the second capture's records, as written, and the originals its revisits refer to.
    const only2 = await exportWacz(archive, work, 'only2', ['--capture', '2']);
    const exported = await recordsOf(path.join(only2, 'archive'));
    const originalsFile = [...exported.keys()].find((f) => !secondFiles.includes(f));
    assert.deepEqual([...exported.keys()].filter((f) => f !== originalsFile).sort(), [...secondFiles].sort());
    const secondRecords = await recordsOf(warcDir);
    for (const f of secondFiles) {
      const ids = (rs: RawRecord[]) => rs.map((r) => r.header('WARC-Record-ID'));
      assert.deepEqual(ids(exported.get(f)!), ids(secondRecords.get(f)!), `${f} exported as it is`);
    }
    const ownIds = new Set(secondFiles.flatMap((f) => secondRecords.get(f)!.map((r) => r.header('WARC-Record-ID')!)));
    const referred = new Set(
      secondFiles.flatMap((f) => secondRecords.get(f)!.filter((r) => r.type === 'revisit').map((r) => r.header('WARC-Refers-To')!)),
    );
    for (const id of ownIds) referred.delete(id);
    assert.ok(referred.size > 0, 'the second capture has revisits of the first');
    assert.ok(originalsFile, 'a file of originals');
    const originals = exported.get(originalsFile)!;
    assert.equal(originals[0]!.type, 'warcinfo');
    const copied = originals.filter((r) => r.type === 'response');
    assert.deepEqual(new Set(copied.map((r) => r.header('WARC-Record-ID'))), referred);
    // Beside the responses, only the warcinfo records they name: the package stands alone.
    const infos = new Set(originals.filter((r) => r.type === 'warcinfo').map((r) => r.header('WARC-Record-ID')));
    assert.equal(originals.length, copied.length + infos.size);
    assert.ok(copied.every((r) => infos.has(r.header('WARC-Warcinfo-ID'))), 'each copied response names a warcinfo record in the file');
    const firstIds = new Set(
      [...firstFiles].filter((f) => f.endsWith('.warc.gz')).flatMap((f) => secondRecords.get(f)!.map((r) => r.header('WARC-Record-ID'))),
    );
    assert.ok([...referred].every((id) => firstIds.has(id)), 'originals come from the first capture');
    const cdx2 = cdxjOf(only2);
    assert.deepEqual(cdx2.filter((l) => l.url === editedUrl).map((l) => l.filename).filter((f) => secondFiles.includes(f)).length, 1);
    const pages2 = pagesOf(only2);
    assert.ok(pages2.length > 0 && pages2.every((p) => within(p.ts, c2)), 'only the second capture is listed');
    assert.ok(!pages2.some((p) => p.url === site.origin + deleted.url));

    // The same selection as one WARC file (after its own warcinfo record), and inside a bag.
    const warc = path.join(work, 'only2.warc.gz');
    const warcRun = await runHarvest(['export', archive, '--format', 'warc', '--out', warc, '--quiet', '--capture', '2']);
    assert.equal(warcRun.status, 0, warcRun.stderr);
    // Every export writes a warcinfo record of its own for the originals: the rest are the same records.
    const ids = (rs: RawRecord[]) => rs.filter((r) => r.type !== 'warcinfo').map((r) => r.header('WARC-Record-ID'));
    const inWarc = ids(await readRaw(warc));
    const inWacz = ids([...exported.values()].flat());
    assert.equal(inWarc.length, inWacz.length);
    assert.deepEqual(new Set(inWarc), new Set(inWacz));
    const bag = path.join(work, 'only2-bag');
    const bagRun = await runHarvest(['export', archive, '--format', 'bagit', '--out', bag, '--quiet', '--capture', '2']);
    assert.equal(bagRun.status, 0, bagRun.stderr);
    assert.equal(cli('verify', bag, '--deep').status, 0);
    const bagWacz = path.join(work, 'only2-bag-wacz');
    await extractZip(path.join(bag, 'data', readdirSync(path.join(bag, 'data')).find((f) => f.endsWith('.wacz'))!), bagWacz);
    assert.deepEqual(readdirSync(path.join(bagWacz, 'archive')).sort(), readdirSync(path.join(only2, 'archive')).sort());
    // Its provenance is the second capture's, not the whole archive's.
    const info = parseBagInfo(readFileSync(path.join(bag, 'bag-info.txt'), 'utf8'));
    const field = (label: string) => info.filter(([l]) => l === label).map(([, v]) => v);
    assert.deepEqual(field('Harvest-Crawl-Start'), [c2.startedAt]);
    assert.deepEqual(field('Harvest-Crawl-End'), [c2.finishedAt]);
    assert.deepEqual(field('Harvest-Captures'), ['capture 2 of 2']);
    assert.equal(createdOf(only2), c2.startedAt);
    assert.equal(createdOf(all), c1.startedAt);

    // --capture 1 is the first capture alone: its revisits are of its own records.
    const only1 = await exportWacz(archive, work, 'only1', ['--capture', '1']);
    assert.deepEqual(readdirSync(path.join(only1, 'archive')).sort(), [...firstFiles].filter((f) => f.endsWith('.warc.gz')).sort());

    // Mistakes are named.
    const none = cli('export', archive, '--format', 'wacz', '--out', path.join(work, 'x.wacz'), '--capture', '3', '--quiet');
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no capture 3/);
    const zip = cli('export', archive, '--format', 'zip', '--out', path.join(work, 'x.zip'), '--capture', '1');
    assert.equal(zip.status, 2);
    assert.match(zip.stderr, /--capture is for wacz, warc and bagit/);
  });
});
