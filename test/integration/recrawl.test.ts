import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChangeReport } from '../../shared/captures.js';
import type { UrlRecord } from '../../shared/crawl.js';
import { canonicalize } from '../../electron/engine/url/canonical.js';
import { CLI, linkcheck, startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';

const NOT_MODIFIED_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

function changes(archive: string, ...args: string[]): ChangeReport {
  const out = spawnSync(process.execPath, [CLI, 'changes', archive, '--json', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout) as ChangeReport;
}

async function warcRecords(dir: string, files: string[]): Promise<RawRecord[]> {
  const all: RawRecord[] = [];
  for (const f of files) all.push(...(await readRaw(path.join(dir, f))));
  return all;
}

function warcFiles(archive: string): string[] {
  return readdirSync(path.join(archive, 'warc')).filter((f) => f.endsWith('.warc.gz')).sort();
}

/** SIGKILLs `harvest <args>` once its progress line has shown and `afterMs` have passed; resolves with its exit code, null if killed. */
function runAndKill(args: string[], afterMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let timer: NodeJS.Timeout | null = null;
    child.stderr!.on('data', () => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.once('exit', (code) => {
      if (timer) clearTimeout(timer);
      resolve(code);
    });
  });
}

/** The URLs of the site each of its pages references in href, src and srcset, resolved. */
function referencesBySite(site: BenchSite): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of site.manifest.pages) {
    const file = path.join(site.dir, p.file);
    if (!existsSync(file)) continue;
    const html = readFileSync(file, 'latin1');
    const set = new Set<string>();
    const add = (v: string) => {
      try {
        const u = new URL(v.replace(/&amp;/g, '&'), site.origin + p.url);
        u.hash = '';
        // Links off the site are never fetched, so never removed.
        if (u.origin === site.origin) set.add(u.href);
      } catch {
        // not a URL
      }
    };
    for (const m of html.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/gi)) add(m[1]!);
    for (const m of html.matchAll(/\ssrcset\s*=\s*"([^"]*)"/gi)) for (const part of m[1]!.split(',')) add(part.trim().split(/\s+/)[0]!);
    out.set(p.file, set);
  }
  return out;
}

describe('a re-crawl of an edited site', () => {
  let work: string;
  let site: BenchSite;
  let isTrap: (url: string) => boolean;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-recrawl-'));
    site = await startBenchSite({ pages: 150, workDir: work, validators: true, live: true });
    const traps = site.manifest.traps.map((t) => new RegExp(t.pattern));
    isTrap = (url) => traps.some((re) => re.test(new URL(url).pathname + new URL(url).search));
  });

  after(async () => {
    await site?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('records new, changed, markup-only and removed pages exactly, with 304s and revisits for the rest, through kills', async () => {
    const archive = path.join(work, 'archive');
    const first = await runHarvest(['crawl', `${site.origin}/`, '--out', archive, '--quiet', '--connections', '4', '--delay-ms', '0']);
    assert.equal(first.status, 0, first.stderr);
    const before1 = listRecords(archive);
    const warcBefore = new Set(warcFiles(archive));

    // The archived URLs of each site file: a page is reached through its aliases (?ref=, index.html) too.
    const fileOf = new Map<string, string>();
    for (const p of site.manifest.pages) {
      for (const alias of p.urls ?? [p.url]) {
        const u = canonicalize(site.origin + alias);
        if (u !== null) fileOf.set(u, p.file);
      }
    }
    const archivedUrlsOf = (files: Set<string>) =>
      before1.filter((r) => r.state === 'archived' && files.has(fileOf.get(r.url) ?? '')).map((r) => r.url).sort();

    const pages = site.manifest.pages
      .filter((p) => p.file.startsWith('www/news/') && p.depth === 2 && (p.charset ?? 'utf-8') === 'utf-8')
      .sort((a, b) => a.id.localeCompare(b.id));
    assert.ok(pages.length >= 18, `only ${pages.length} news pages`);
    const edited = pages.slice(0, 10);
    const markupOnly = pages.slice(10, 13);
    // Pages whose every reference is made by a page that stays too, so deleting them leaves nothing else unreachable.
    const refs = referencesBySite(site);
    const keep = new Set(edited.concat(markupOnly).map((p) => p.file));
    const deleted: typeof pages = [];
    const candidates = site.manifest.pages
      .filter((p) => p.depth === 2 && (p.charset ?? 'utf-8') === 'utf-8' && !keep.has(p.file) && p.file.endsWith('.html'))
      .sort((a, b) => a.id.localeCompare(b.id));
    for (const p of candidates) {
      if (deleted.length === 5) break;
      const gone = new Set(deleted.map((d) => d.file).concat(p.file));
      const orphans = [...(refs.get(p.file) ?? [])].some((u) => ![...refs].some(([f, set]) => !gone.has(f) && set.has(u)));
      if (!orphans) deleted.push(p);
    }
    assert.equal(deleted.length, 5);
    const www = (file: string) => path.join(site.dir, file);
    const added = [1, 2, 3].map((i) => `/new-pages/added-${i}.html`);
    mkdirSync(path.join(site.dir, 'www', 'new-pages'), { recursive: true });
    for (const [i, p] of added.entries()) {
      writeFileSync(path.join(site.dir, 'www', p), `<!DOCTYPE html><html><head><title>Added ${i}</title></head><body><p>A new page, number ${i}.</p></body></html>`);
    }
    for (const [i, p] of edited.entries()) {
      const html = readFileSync(www(p.file), 'utf8');
      // The first edited page also links the new ones.
      const links = i === 0 ? added.map((a) => `<a href="${a}">added</a>`).join(' ') : '';
      writeFileSync(www(p.file), html.replace('</body>', `<p>Revised paragraph ${i}.</p>${links}</body>`));
    }
    for (const p of markupOnly) {
      const html = readFileSync(www(p.file), 'utf8');
      assert.ok(html.includes('<body'), p.file);
      writeFileSync(www(p.file), html.replace('<body', '<body data-revision="2"'));
    }
    for (const p of deleted) unlinkSync(www(p.file));

    await fetch(`${site.origin}/__stats/reset`, { method: 'POST' });
    // The re-crawl is killed twice and resumed, as a first crawl may be.
    let kills = 0;
    let code = await runAndKill(['recrawl', archive], 400);
    if (code === null) kills++;
    while (code !== 0) {
      assert.equal(code, null, 'the re-crawl exited with an error');
      code = await runAndKill(['resume', archive], kills < 2 ? 1500 : 600_000);
      if (code === null) kills++;
    }

    const report = changes(archive);
    assert.equal(report.capture, 2);
    assert.equal(report.previous, 1);
    const site2 = (urls: string[]) => urls.filter((u) => !isTrap(u)).sort();
    assert.deepEqual(site2(report.new), added.map((a) => canonicalize(site.origin + a)!).sort());
    assert.deepEqual(site2(report.changed), archivedUrlsOf(new Set(edited.map((p) => p.file))));
    assert.deepEqual(site2(report.markupOnly), archivedUrlsOf(new Set(markupOnly.map((p) => p.file))));
    assert.deepEqual(site2(report.removed), archivedUrlsOf(new Set(deleted.map((p) => p.file))));
    assert.equal(report.counts.failed, 0);
    assert.equal(report.counts.new, report.new.length);

    // Unchanged files were answered 304, each recorded as a server-not-modified revisit; no payload was stored again.
    const stats = (await site.stats()) as { byStatus: Record<string, number> };
    const served304 = stats.byStatus['304'] ?? 0;
    assert.ok(report.counts.notModified > 500, `${report.counts.notModified} not modified`);
    assert.ok(served304 >= report.counts.notModified && served304 <= report.counts.notModified + kills * 10, `${served304} 304s for ${report.counts.notModified}`);
    // What the capture says it received leaves out the payloads the 304s stand for.
    const firstBytes = before1.reduce((n, r) => n + (r.bytes ?? 0), 0);
    const received = (JSON.parse((await runHarvest(['stats', archive, '--json'])).stdout) as { counts: { bytes: number } }).counts.bytes;
    assert.ok(received > 0 && received < firstBytes / 2, `re-crawl received ${received} bytes, the first crawl ${firstBytes}`);
    const newFiles = warcFiles(archive).filter((f) => !warcBefore.has(f));
    assert.ok(newFiles.length >= 1, 'the re-crawl wrote WARC files of its own');
    const records = await warcRecords(path.join(archive, 'warc'), newFiles);
    const notModifiedRevisits = records.filter((r) => r.type === 'revisit' && r.header('WARC-Profile') === NOT_MODIFIED_PROFILE);
    assert.ok(notModifiedRevisits.length >= report.counts.notModified);
    for (const r of notModifiedRevisits) assert.ok(r.header('WARC-Refers-To-Target-URI') && r.header('WARC-Refers-To-Date'), 'a revisit names its original');
    const unchangedUrls = new Set(before1.filter((r) => r.state === 'archived').map((r) => r.url));
    for (const u of [...report.changed, ...report.markupOnly, ...report.new]) unchangedUrls.delete(u);
    const storedAgain = records.filter((r) => r.type === 'response' && unchangedUrls.has(r.header('WARC-Target-URI')!) && !isTrap(r.header('WARC-Target-URI')!));
    assert.deepEqual(storedAgain.map((r) => r.header('WARC-Target-URI')), [], 'an unchanged page was stored again');

    // The mirror shows the second version; removed pages stay on disk, and every link works.
    const after2 = new Map(listRecords(archive).map((r) => [r.url, r] as [string, UrlRecord]));
    const mirror = path.join(archive, 'mirror');
    for (const u of report.changed.filter((x) => !isTrap(x))) {
      assert.match(readFileSync(path.join(mirror, after2.get(u)!.localPath!), 'utf8'), /Revised paragraph \d/, u);
    }
    for (const u of report.markupOnly) assert.match(readFileSync(path.join(mirror, after2.get(u)!.localPath!), 'utf8'), /data-revision="2"/, u);
    for (const u of report.removed) assert.ok(existsSync(path.join(mirror, after2.get(u)!.localPath!)), `removed ${u} kept on disk`);
    for (const u of report.new) assert.ok(existsSync(path.join(mirror, after2.get(u)!.localPath!)), `new ${u} saved`);
    const check = linkcheck(mirror, path.join(site.dir, 'manifest.json'), path.join(work, 'linkcheck.json'));
    assert.equal(check.links.brokenArchivable, 0, JSON.stringify(check.links.examples.broken.slice(0, 5)));
  });
});
