import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CrawlStats, UrlRecord } from '../../shared/crawl.js';
import { FocusReportSchema } from '../../shared/extracted.js';
import { CLI } from '../helpers/benchSite.js';
import { CONTACT_FIELDS, CONTACT_TEMPLATE, FLOOD_TEMPLATE, startFocusSite, type FocusSite } from '../helpers/focusSite.js';
import { listRecords, readArchiveStats, runHarvest } from '../helpers/harvestCli.js';

type FocusRecord = UrlRecord & { relevance?: number | null; topicState?: string | null; duplicateOf?: string | null };

let site: FocusSite;
const dir = mkdtempSync(path.join(tmpdir(), 'harvest-focus-'));
let n = 0;

function templateFile(t: unknown): string {
  const file = path.join(dir, `t${n++}.json`);
  writeFileSync(file, JSON.stringify(t));
  return file;
}

async function crawl(args: string[]): Promise<string> {
  const out = path.join(dir, `a${n++}`);
  const run = await runHarvest(['crawl', ...site.truth.origins, '--out', out, '--quiet', ...args]);
  assert.equal(run.status, 0, run.stderr);
  return out;
}

/** Relevant pages (by the ground truth) over HTML pages archived. */
function harvestRate(records: UrlRecord[]): { rate: number; pages: number } {
  const pages = records.filter((r) => r.state === 'archived' && site.truth.pages.has(r.url));
  return { rate: pages.filter((r) => site.truth.pages.get(r.url)).length / pages.length, pages: pages.length };
}

before(async () => {
  site = await startFocusSite();
});

after(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('focused harvest', () => {
  it('beats breadth-first on harvest rate at budgets of 30, 60 and 90 pages by at least 0.5', async () => {
    const template = templateFile(FLOOD_TEMPLATE);
    const all = site.truth.pages.size;
    const relevant = [...site.truth.pages.values()].filter(Boolean).length;
    for (const budget of [30, 60, 90]) {
      const focused = harvestRate(listRecords(await crawl(['--max-pages', String(budget), '--template', template])));
      const breadth = harvestRate(listRecords(await crawl(['--max-pages', String(budget)])));
      console.log(
        `harvest rate at ${budget} pages (site: ${relevant} relevant of ${all}): template ${focused.rate.toFixed(3)} (${focused.pages} pages), breadth-first ${breadth.rate.toFixed(3)} (${breadth.pages} pages)`,
      );
      assert.ok(focused.rate >= breadth.rate + 0.5, `at ${budget}: template ${focused.rate} vs breadth-first ${breadth.rate}`);
      assert.ok(focused.rate >= 0.75, `at ${budget}: template ${focused.rate}`);
    }
  });

  it('records relevance, off-topic and near-duplicate verdicts, follows next-page chains to where they stop matching, and reports them', async () => {
    const archive = await crawl(['--template', templateFile(FLOOD_TEMPLATE)]);
    const records = listRecords(archive) as FocusRecord[];
    const byUrl = new Map(records.map((r) => [r.url, r]));
    const { truth } = site;

    // The listing: every matching page archived and relevant, the page that stops matching archived
    // as off-topic, and its next page not followed.
    for (const url of truth.chain.matching) assert.equal(byUrl.get(url)?.topicState, 'relevant', url);
    assert.equal(byUrl.get(truth.chain.stop)?.state, 'archived');
    assert.equal(byUrl.get(truth.chain.stop)?.topicState, 'off-topic');
    assert.equal(byUrl.get(truth.chain.after)?.state, 'skipped');
    assert.equal(byUrl.get(truth.chain.after)?.skipReason, 'focus:off-topic');

    // Near-duplicates (same text, other date and boilerplate) point at their article, with their similarity.
    for (const [url, of] of truth.nearDuplicates) {
      assert.equal(byUrl.get(url)?.topicState, 'near-duplicate', url);
      assert.equal(byUrl.get(url)?.duplicateOf, of, url);
      const similarity = byUrl.get(url)!.similarity!;
      assert.ok(similarity >= 1 - 10 / 64 && similarity <= 1, `${url}: ${similarity}`);
    }
    // The exact duplicate and its original: whichever came second repeats the first.
    for (const [a, b] of truth.exactDuplicates) {
      const pair = [byUrl.get(a)!, byUrl.get(b)!];
      const dup = pair.filter((r) => r.topicState === 'near-duplicate');
      assert.equal(dup.length, 1, `${a} / ${b}: ${pair.map((r) => r.topicState)}`);
      assert.equal(dup[0]!.duplicateOf, dup[0]!.url === a ? b : a);
      assert.equal(dup[0]!.similarity, 1);
    }
    // Nothing else is a duplicate, every verdict agrees with the ground truth, and every page has a relevance.
    const duplicates = new Set([...truth.nearDuplicates.keys(), ...truth.exactDuplicates.keys(), ...truth.exactDuplicates.values()]);
    const judged = records.filter((r) => r.state === 'archived');
    for (const r of judged) {
      assert.equal(typeof r.relevance, 'number', r.url);
      if (duplicates.has(r.url)) continue;
      assert.equal(r.topicState, truth.pages.get(r.url) ? 'relevant' : 'off-topic', `${r.url} ${r.relevance}`);
      assert.equal(r.duplicateOf, null);
      assert.equal(r.similarity, null);
    }
    // Off-topic sections are never entered: their hubs are pruned from the off-topic home pages.
    assert.ok(!judged.some((r) => /\/(transport|culture)\/./.test(r.url)));
    // Every relevant page of the site was found.
    for (const [url, relevant] of truth.pages) if (relevant) assert.equal(byUrl.get(url)?.state, 'archived', url);

    const stats = readArchiveStats(archive) as CrawlStats;
    const count = (s: string) => judged.filter((r) => r.topicState === s).length;
    assert.equal(stats.relevantPages, count('relevant'));
    assert.equal(stats.offTopicPages, count('off-topic'));
    assert.equal(stats.nearDuplicates, count('near-duplicate'));
    assert.equal(stats.harvestRate, count('relevant') / judged.length);

    // The report groups each copy under its original, with their similarity.
    const report = spawnSync(process.execPath, [CLI, 'extract', archive, '--format', 'report'], { encoding: 'utf8' });
    const groups = FocusReportSchema.parse(JSON.parse(report.stdout)).nearDuplicates;
    for (const [url, of] of truth.nearDuplicates) assert.ok(groups.find((g) => g.original === of)?.copies.some((c) => c.url === url && c.similarity > 0.8), url);
    assert.equal(groups.reduce((n, g) => n + g.copies.length, 0), count('near-duplicate'));
    // A flag marked false is remembered: the re-crawl judges that page as an original, the others as before.
    const [flagged, ...others] = [...truth.nearDuplicates.keys()];
    const mark = spawnSync(process.execPath, [CLI, 'extract', archive, '--not-duplicate', flagged!], { encoding: 'utf8' });
    assert.equal(mark.status, 0, mark.stderr);
    assert.equal(spawnSync(process.execPath, [CLI, 'extract', archive, '--not-duplicate', truth.chain.stop], { encoding: 'utf8' }).status, 2, 'only a flagged page');
    assert.equal((await runHarvest(['recrawl', archive, '--quiet'])).status, 0);
    const after = new Map((listRecords(archive) as FocusRecord[]).map((r) => [r.url, r]));
    assert.equal(after.get(flagged!)?.topicState, 'relevant');
    assert.equal(after.get(flagged!)?.duplicateOf, null);
    for (const url of others) assert.equal(after.get(url)?.topicState, 'near-duplicate', url);
  });

  it('extracts contact fields with precision and recall of at least 0.9 per field', async () => {
    const archive = await crawl(['--template', templateFile(CONTACT_TEMPLATE)]);
    const out = spawnSync(process.execPath, [CLI, 'extract', archive, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    const rows = JSON.parse(out.stdout) as { url: string; capture: string; fields: Record<string, { value: string; confidence: number }> }[];
    const norm = (v: string) => v.normalize('NFKC').toLowerCase().replace(/[\s,，]+/g, ' ').trim();
    const lines: string[] = [];
    for (const field of CONTACT_FIELDS) {
      let extracted = 0;
      let correct = 0;
      for (const row of rows) {
        const got = row.fields[field];
        if (got === undefined) continue;
        extracted++;
        const want = site.truth.contacts.get(row.url)?.[field];
        if (want !== undefined && norm(got.value) === norm(want)) correct++;
        else lines.push(`  ${field} wrong at ${row.url}: '${got.value}' (want '${want}')`);
      }
      const precision = extracted === 0 ? 0 : correct / extracted;
      const recall = correct / site.truth.contacts.size;
      lines.unshift(`${field}: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} (${correct} of ${site.truth.contacts.size})`);
      assert.ok(precision >= 0.9 && recall >= 0.9, `${field}: precision ${precision}, recall ${recall}\n${lines.join('\n')}`);
    }
    console.log(lines.join('\n'));
    // One CSV row per page, a column per field.
    const csv = spawnSync(process.execPath, [CLI, 'extract', archive, '--format', 'csv'], { encoding: 'utf8' });
    const [header, ...body] = csv.stdout.trim().split('\r\n');
    assert.equal(header, ['url', 'capture', 'duplicate_of', ...CONTACT_FIELDS.flatMap((f) => [f, `${f}_confidence`])].join(','));
    assert.equal(body.length, rows.length);
    assert.ok(rows.length >= site.truth.contacts.size);
  });

  it('keeps the template when a paused crawl resumes', async () => {
    const out = path.join(dir, `a${n++}`);
    const events = path.join(dir, `e${n++}.jsonl`);
    const args = ['crawl', ...site.truth.origins, '--out', out, '--quiet', '--template', templateFile(FLOOD_TEMPLATE), '--delay-ms', '60', '--events-jsonl', events];
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const archivedSoFar = () => (existsSync(events) ? readFileSync(events, 'utf8').split('\n').filter((l) => l.includes('"state":"archived"')).length : 0);
    while (archivedSoFar() < 4) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    const before = listRecords(out).filter((r) => r.state === 'archived').length;
    const resumed = await runHarvest(['resume', out, '--quiet']);
    assert.equal(resumed.status, 0, resumed.stderr);
    const records = listRecords(out) as FocusRecord[];
    const archived = records.filter((r) => r.state === 'archived');
    assert.ok(archived.length > before, `${archived.length} after, ${before} before`);
    // Pages of the resumed run were judged and its links filtered as the template says.
    for (const r of archived) assert.ok(r.topicState === 'relevant' || r.topicState === 'off-topic' || r.topicState === 'near-duplicate', r.url);
    assert.ok(!archived.some((r) => /\/(transport|culture)\/./.test(r.url)));
    assert.ok(records.some((r) => r.skipReason === 'focus:off-topic'));
  });

  it('refuses a template with a bad field, naming it', () => {
    const bad = spawnSync(process.execPath, [CLI, 'crawl', site.truth.origins[0]!, '--out', path.join(dir, 'bad'), '--template', templateFile({ topic: { keywords: ['x'], threshold: 3 } })], {
      encoding: 'utf8',
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--template .*t\d+\.json: topic\.threshold: /);
  });
});
