import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clusterArchive } from '../../electron/engine/cluster/clusterArchive.js';
import { leaseBatch, openClusterDb, registerWorker } from '../../electron/engine/cluster/coordination.js';
import { readHarvest } from '../../electron/engine/cluster/schema.js';
import { workerForSite } from '../../electron/engine/politeness/shards.js';
import { Archive } from '../../electron/engine/store/archive.js';
import { FocusStore } from '../../electron/engine/store/focusStore.js';
import type { ClusterStatus } from '../../shared/cluster.js';
import type { UrlRecord } from '../../shared/crawl.js';
import type { ExtractedRecord } from '../../shared/extracted.js';
import { CLI } from '../helpers/benchSite.js';
import { startWorker } from '../helpers/clusterWorker.js';
import { CONTACT_TEMPLATE, FLOOD_TEMPLATE, startFocusSite, type FocusSite } from '../helpers/focusSite.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { query, startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';

const ADDRESSES = ['127.0.0.121', '127.0.0.122'];

type FocusRecord = UrlRecord & { relevance?: number | null; topicState?: string | null; duplicateOf?: string | null };

/** Two worker names the site hash gives sites 0 and 1 to different workers. */
function namesSplitting(prefix: string, sites: string[]): string[] {
  for (let n = 1; ; n += 2) {
    const names = [`${prefix}w${n}`, `${prefix}w${n + 1}`];
    if (workerForSite(sites[0]!, names) !== workerForSite(sites[1]!, names)) return names;
  }
}

describe('focused cluster harvest', { timeout: 120_000 }, () => {
  let postgres: ThrowawayPostgres;
  let site: FocusSite;
  let work: string;
  let serial = 0;

  function templateFile(t: unknown): string {
    const file = path.join(work, `t${serial++}.json`);
    writeFileSync(file, JSON.stringify(t));
    return file;
  }

  async function localCrawl(template: string): Promise<string> {
    const out = path.join(work, `local${serial++}`);
    const run = await runHarvest(['crawl', ...site.truth.origins.map((o) => `${o}/`), '--out', out, '--quiet', '--delay-ms', '0', '--template', template]);
    assert.equal(run.status, 0, run.stderr);
    return out;
  }

  /** A new harvest in a database of its own, harvested to the end by two workers. */
  async function clusterHarvest(template: string): Promise<{ db: string; store: string; status: ClusterStatus; text: string }> {
    const name = `f${++serial}`;
    await query(postgres.url, `CREATE DATABASE ${name}`);
    const db = postgres.url.replace(/\/harvest$/, `/${name}`);
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', name, '--delay-ms', '0', '--lease-timeout', '5', '--template', template, ...site.truth.origins.map((o) => `${o}/`)]);
    assert.equal(init.status, 0, init.stderr);
    const store = path.join(work, `store-${name}`);
    const workers = namesSplitting(name, site.truth.origins).map((id, i) => startWorker(db, store, id, ADDRESSES[i]!, ['--lease-seconds', '0.3']));
    for (const w of workers) assert.equal(await w.exit, 0, w.log());
    const status = JSON.parse((await runHarvest(['cluster', 'status', '--db', db, '--json'])).stdout) as ClusterStatus;
    const text = (await runHarvest(['cluster', 'status', '--db', db])).stdout;
    return { db, store, status, text };
  }

  /** The cluster harvest as the local archive its export is made from, read as `harvest list` reads one. */
  async function exportedArchive(db: string, store: string): Promise<string> {
    const dir = path.join(work, `exported${serial++}`);
    const pool = await openClusterDb(db);
    try {
      (await clusterArchive(pool, store, dir)).close();
    } finally {
      await pool.end();
    }
    // Its mirror/ and warc/ link to the store, which every command that opens an archive refuses
    // (links could lead anywhere): read here, they are copied in.
    for (const sub of ['mirror', 'warc']) {
      const link = path.join(dir, sub);
      const target = readlinkSync(link);
      rmSync(link);
      cpSync(target, link, { recursive: true });
    }
    return dir;
  }

  before(async () => {
    postgres = await startPostgres();
    site = await startFocusSite(3, 19, { jointStatement: true });
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cluster-focus-'));
  });

  after(async () => {
    await site?.close();
    await postgres?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('judges, prunes and archives as a local harvest does; two workers seeing near-duplicates at once keep one original', async () => {
    const template = templateFile(FLOOD_TEMPLATE);
    const local = listRecords(await localCrawl(template)) as FocusRecord[];
    const pairs0 = site.jointPairs();
    const { db, store, status, text } = await clusterHarvest(template);
    // The joint statements were in flight together, so each was judged before the other's batch committed.
    assert.equal(site.jointPairs(), pairs0 + 1);
    assert.equal(status.pending, 0);
    const exported = await exportedArchive(db, store);
    const cluster = listRecords(exported) as FocusRecord[];
    const byUrl = (rs: FocusRecord[]) => new Map(rs.map((r) => [r.url, r]));
    const l = byUrl(local);
    const c = byUrl(cluster);
    const { truth } = site;

    // Which of a pair of duplicates is the original depends on which was fetched first: compared as a pair.
    const pairs = [[...truth.exactDuplicates][0]!, truth.joint as [string, string], ...truth.nearDuplicates];
    const paired = new Set(pairs.flat());
    const archived = (rs: FocusRecord[]) => rs.filter((r) => r.state === 'archived').map((r) => r.url).sort();
    const verdicts = (m: Map<string, FocusRecord>) => [...m.values()].filter((r) => r.state === 'archived' && !paired.has(r.url)).map((r) => `${r.url} ${r.topicState}`).sort();
    const pruned = (rs: FocusRecord[]) => rs.filter((r) => r.skipReason === 'focus:off-topic').map((r) => r.url).sort();
    assert.deepEqual(archived(cluster), archived(local));
    assert.deepEqual(verdicts(c), verdicts(l));
    assert.deepEqual(pruned(cluster), pruned(local));
    assert.ok(pruned(cluster).some((u) => /\/(transport|culture)\/s\d+\/$/.test(u)), 'off-topic sections are pruned');
    for (const [url, relevant] of truth.pages) if (relevant) assert.equal(c.get(url)?.state, 'archived', url);

    // Every pair has one original and one near-duplicate pointing at it, in both.
    for (const [a, b] of pairs) {
      for (const m of [l, c]) {
        const states = [m.get(a)!, m.get(b)!].map((r) => r.topicState);
        assert.equal(states.filter((s) => s === 'near-duplicate').length, 1, `${a} / ${b}: ${states}`);
        const dup = m.get(a)!.topicState === 'near-duplicate' ? m.get(a)! : m.get(b)!;
        assert.equal(dup.duplicateOf, dup.url === a ? b : a);
      }
    }
    // Best-first: on each site the flood articles (level 2, named by their links) were fetched before the
    // section hubs the relevant flooding hub also links to (level 2, nothing in their links).
    for (const origin of truth.origins) {
      const times = await query<{ url: string; ms: number }>(db, `SELECT url, extract(epoch FROM fetched_at)::float8 * 1000 AS ms FROM urls WHERE site = $1 AND fetched_at IS NOT NULL`, [origin]);
      const at = new Map(times.map((t) => [t.url, t.ms]));
      const lastWard = Math.max(...[1, 2, 3, 4, 5, 6, 7, 8].map((k) => at.get(`${origin}/environment/flooding/ward-${k}`)!));
      const firstHub = Math.min(...['/transport/', '/culture/', '/contact/'].map((p) => at.get(origin + p)!));
      assert.ok(lastWard <= firstHub, `${origin}: last ward at ${lastWard}, first section hub at ${firstHub}`);
    }

    // Status: the verdicts, as stats show a local harvest's.
    const judged = cluster.filter((r) => r.topicState != null);
    const count = (s: string) => judged.filter((r) => r.topicState === s).length;
    assert.deepEqual(status.focus, {
      relevantPages: count('relevant'),
      offTopicPages: count('off-topic'),
      nearDuplicates: count('near-duplicate'),
      harvestRate: count('relevant') / judged.length,
    });
    assert.match(text, new RegExp(`focused: ${count('relevant')} relevant, ${count('off-topic')} off-topic, ${count('near-duplicate')} near-duplicates, harvest rate \\d+\\.\\d%`));
    process.stderr.write(`# ${judged.length} pages judged: ${count('relevant')} relevant, ${count('off-topic')} off-topic, ${count('near-duplicate')} near-duplicates; ${pruned(cluster).length} links pruned\n`);
  });

  it('extracts the fields a local harvest does, into the archive the export is made from', async () => {
    const template = templateFile(CONTACT_TEMPLATE);
    const localArchive = await localCrawl(template);
    const { db, store } = await clusterHarvest(template);
    const records = (archive: string): Omit<ExtractedRecord, 'capture'>[] => {
      const out = spawnSync(process.execPath, [CLI, 'extract', archive, '--format', 'json'], { encoding: 'utf8' });
      assert.equal(out.status, 0, out.stderr);
      return (JSON.parse(out.stdout) as ExtractedRecord[]).map(({ url, duplicateOf, fields }) => ({ url, duplicateOf, fields })).sort((a, b) => (a.url < b.url ? -1 : 1));
    };
    const exported = await exportedArchive(db, store);
    const want = records(localArchive);
    assert.ok(want.length >= site.truth.contacts.size, `${want.length} records`);
    assert.deepEqual(records(exported), want);
    // Each record under its page's capture date, as the local harvest files them.
    const a = Archive.open(exported, { readonly: true });
    try {
      for (const r of new FocusStore(a.catalogue).iterateRecords()) assert.match(r.capture, /^\d{4}-\d\d-\d\dT/);
    } finally {
      a.close();
    }
    // The export runs over it.
    const wacz = path.join(work, 'contacts.wacz');
    const exp = await runHarvest(['cluster', 'export', '--db', db, '--store', store, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(exp.status, 0, exp.stderr);
    assert.ok(existsSync(wacz));
  });

  it("leases a focused harvest's site queue best-first: by score, whatever the depth", async () => {
    const name = `f${++serial}`;
    await query(postgres.url, `CREATE DATABASE ${name}`);
    const db = postgres.url.replace(/\/harvest$/, `/${name}`);
    const origin = site.truth.origins[0]!;
    const init = await runHarvest(['cluster', 'init', '--db', db, '--name', name, '--template', templateFile(FLOOD_TEMPLATE), `${origin}/`]);
    assert.equal(init.status, 0, init.stderr);
    // The seed (depth 0, the top of level 0), and three URLs whose depths say the opposite of their scores.
    await query(
      db,
      `INSERT INTO urls (url, site, depth, state, requisite, via, type_hint, score)
       SELECT $1 || p, $1, d, 'queued', false, 'a', 'html', s FROM unnest($2::text[], $3::int[], $4::float8[]) AS x(p, d, s)`,
      [origin, ['/shallow', '/deeper', '/deepest'], [1, 2, 3], [0.2, 1.4, 2.7]],
    );
    const pool = await openClusterDb(db);
    try {
      await registerWorker(pool, 'w', 2, 5_000);
      const { job } = await readHarvest(pool);
      const lease = await leaseBatch(pool, 'w', origin, 2, null, job.limits, 'bestFirst');
      assert.deepEqual(
        lease?.urls.map((u) => [u.url.slice(origin.length), u.score]),
        [
          ['/deepest', 2.7],
          ['/deeper', 1.4],
        ],
      );
    } finally {
      await pool.end();
    }
  });

  it('refuses the template parts that act on a run of seeds, naming them', async () => {
    for (const [part, field] of [
      [{ seeds: { sitemaps: true } }, 'seeds'],
      [{ crawlProbability: { enabled: true } }, 'crawlProbability'],
    ] as const) {
      const bad = await runHarvest(['cluster', 'init', '--db', postgres.url, '--name', 'bad', '--template', templateFile({ ...FLOOD_TEMPLATE, ...part }), `${site.truth.origins[0]}/`]);
      assert.equal(bad.status, 2, bad.stderr);
      assert.match(bad.stderr, new RegExp(`--template: ${field} .*does not apply to a cluster harvest`));
    }
  });
});
