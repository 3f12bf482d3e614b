import type pg from 'pg';
import type { SkipReason, UrlState } from '../../../shared/crawl.js';
import type { ClusterDiscovery } from './admission.js';
import type { BatchFocus, ClusterFocus } from './clusterFocus.js';
import { inTransaction } from './coordination.js';

/** What became of one leased URL. */
export type UrlOutcome =
  | {
      id: number;
      state: Exclude<UrlState, 'queued'>;
      httpStatus: number | null;
      contentType: string | null;
      bytes: number | null;
      localPath: string | null;
      /** A redirect's canonical target (its row id is looked up at commit). */
      redirectTo: string | null;
      error: string | null;
      title: string | null;
      skipReason: SkipReason | null;
      fetchedAt: Date | null;
      attempts: number;
    }
  /** A transient failure with attempts left: queued again, due after the back-off. */
  | { id: number; state: 'retry'; attempts: number; retryInMs: number }
  /** Abandoned (the worker stopping): queued again as it was. */
  | { id: number; state: 'released' };

/** An outcome recorded for good (not a retry, not given back). */
export type FinalOutcome = Exclude<UrlOutcome, { state: 'retry' | 'released' }>;

export interface BatchResult {
  outcomes: UrlOutcome[];
  /**
   * URLs a rendered page asked for that the worker fetched and archived while rendering it (not
   * leased): recorded at commit if still queued there, so they are not fetched again.
   */
  pageRequests: { url: string; outcome: UrlOutcome }[];
  discoveries: ClusterDiscovery[];
  /** Seed redirect targets that now define the scope as the seeds do. */
  seedRedirects: string[];
  /** Requests made for the batch's URLs (robots.txt apart), bytes received, failures. */
  fetched: number;
  bytes: number;
  failures: number;
  /** HTML pages archived (the page limit's count). */
  pages: number;
  /** A focused harvest's pages judged in the batch; null without a template. */
  focus: BatchFocus | null;
}

/** Skipped URLs that a later discovery may queue after all, as the local frontier's maybeRequeue. */
const REQUEUABLE: SkipReason[] = ['scope', 'limit:depth', 'limit:links-per-page', 'focus:off-topic'];

/**
 * Reports a batch in one transaction: a focused harvest's verdicts made final (see ClusterFocus,
 * which may plan a page's links again), its discovered URLs admitted (query variants counted over
 * every worker's discoveries, a URL already known left as it is unless a skipped one now deserves its
 * fetch or a queued one a better score), its outcomes recorded, the lease closed and the site let
 * go. Returns false, writing nothing, when the lease was taken back meanwhile (this worker was
 * declared dead): its URLs are another worker's now. Committing a lease committed already (the
 * answer lost with the connection) changes nothing and returns true.
 */
export async function commitBatch(
  db: pg.Pool,
  worker: string,
  lease: { id: number; site: string },
  r: BatchResult,
  maxQueryVariants: number,
  focus: ClusterFocus | null = null,
): Promise<boolean> {
  return inTransaction(db, async (c) => {
    const row = (await c.query<{ done: boolean; outcome: string | null }>('SELECT done_at IS NOT NULL AS done, outcome FROM leases WHERE id = $1 FOR UPDATE', [lease.id])).rows[0];
    // Committed already: a commit tried again after its answer was lost with the connection.
    if (row?.outcome === 'done') return true;
    if (row === undefined || row.done) return false;
    if (focus !== null && r.focus !== null) await focus.commit(c, r.focus);
    const discoveries = uniqueByUrl(r.discoveries);
    if (r.seedRedirects.length > 0) {
      await c.query(
        `UPDATE harvest SET seed_redirects = (SELECT coalesce(jsonb_agg(DISTINCT x), '[]') FROM jsonb_array_elements_text(seed_redirects || $1::jsonb) x)`,
        [JSON.stringify(r.seedRedirects)],
      );
    }
    if (discoveries.length > 0) await admit(c, discoveries, maxQueryVariants);
    await record(c, worker, lease.id, r.outcomes);
    await recordPageRequests(c, worker, r.pageRequests);
    await c.query(`UPDATE leases SET done_at = now(), outcome = 'done' WHERE id = $1`, [lease.id]);
    await c.query('UPDATE sites SET holder = NULL, free_since = now() WHERE site = $1 AND holder = $2', [lease.site, worker]);
    await c.query('UPDATE workers SET fetched = fetched + $2, bytes = bytes + $3, failures = failures + $4, pages = pages + $5 WHERE id = $1', [
      worker,
      r.fetched,
      r.bytes,
      r.failures,
      r.pages,
    ]);
    return true;
  });
}

function uniqueByUrl(all: ClusterDiscovery[]): ClusterDiscovery[] {
  const byUrl = new Map<string, ClusterDiscovery>();
  for (const d of all) {
    const had = byUrl.get(d.url);
    // The first discovery stands, unless a later one queues what the first skipped, or with a better score.
    const better = had !== undefined && d.skipReason === null && (had.skipReason !== null || (d.score ?? -1) > (had.score ?? -1));
    if (had === undefined || better) byUrl.set(d.url, d);
  }
  // Sorted, so concurrent commits take their row locks in one order.
  return [...byUrl.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

async function admit(c: pg.PoolClient, ds: ClusterDiscovery[], maxQueryVariants: number): Promise<void> {
  const sites = [...new Set(ds.map((d) => d.site))].sort();
  await c.query('INSERT INTO sites (site) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [sites]);
  const known = new Set((await c.query<{ url: string }>('SELECT url FROM urls WHERE url = ANY($1::text[])', [ds.map((d) => d.url)])).rows.map((r) => r.url));
  // A new URL to be queued adds a distinct query string to its path; past the limit it is a trap.
  const fresh = ds.filter((d) => !known.has(d.url) && d.skipReason === null && d.variantKey !== null);
  const perKey = new Map<string, ClusterDiscovery[]>();
  for (const d of fresh) perKey.set(d.variantKey!, [...(perKey.get(d.variantKey!) ?? []), d]);
  const reasons = new Map<string, SkipReason>();
  if (perKey.size > 0) {
    const keys = [...perKey.keys()].sort();
    const counted = await c.query<{ key: string; n: number }>(
      `INSERT INTO query_variants (key, n) SELECT * FROM unnest($1::text[], $2::int[])
       ON CONFLICT (key) DO UPDATE SET n = query_variants.n + EXCLUDED.n RETURNING key, n`,
      [keys, keys.map((k) => perKey.get(k)!.length)],
    );
    for (const { key, n } of counted.rows) {
      const group = perKey.get(key)!;
      group.forEach((d, i) => {
        if (n - group.length + i + 1 > maxQueryVariants) reasons.set(d.url, 'trap:query-variants');
      });
    }
  }
  const skip = ds.map((d) => reasons.get(d.url) ?? d.skipReason);
  await c.query(
    `INSERT INTO urls (url, site, depth, state, requisite, parent_id, via, type_hint, redirect_hops, skip_reason, score)
     SELECT u, s, d, CASE WHEN r IS NULL THEN 'queued' ELSE 'skipped' END, q, p, v, t, h, r, sc
     FROM unnest($1::text[], $2::text[], $3::int[], $4::bool[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::text[], $11::float8[])
       AS x(u, s, d, q, p, v, t, h, r, sc)
     ON CONFLICT (url) DO UPDATE SET state = 'queued', skip_reason = NULL, score = GREATEST(urls.score, EXCLUDED.score),
       depth = CASE WHEN urls.state = 'skipped' THEN LEAST(urls.depth, EXCLUDED.depth) ELSE urls.depth END,
       requisite = CASE WHEN urls.state = 'skipped' THEN urls.requisite OR EXCLUDED.requisite ELSE urls.requisite END
       WHERE EXCLUDED.state = 'queued' AND ((urls.state = 'skipped' AND urls.skip_reason = ANY($10::text[]))
         -- a focused harvest's queued URL met again through a better link moves up
         OR (urls.state = 'queued' AND EXCLUDED.score > urls.score))`,
    [
      ds.map((d) => d.url),
      ds.map((d) => d.site),
      ds.map((d) => d.depth),
      ds.map((d) => d.requisite),
      ds.map((d) => d.parentId),
      ds.map((d) => d.via),
      ds.map((d) => d.typeHint),
      ds.map((d) => d.redirectHops),
      skip,
      REQUEUABLE,
      ds.map((d) => d.score),
    ],
  );
}

async function record(c: pg.PoolClient, worker: string, leaseId: number, outcomes: UrlOutcome[]): Promise<void> {
  const again = outcomes.filter((o) => o.state === 'retry' || o.state === 'released');
  if (again.length > 0) {
    await c.query(
      `UPDATE urls SET state = 'queued', lease_id = NULL, attempts = coalesce(x.a, urls.attempts), retry_at = now() + make_interval(secs => x.w / 1000.0)
       FROM unnest($1::bigint[], $2::int[], $3::double precision[]) AS x(i, a, w) WHERE urls.id = x.i AND urls.lease_id = $4`,
      [
        again.map((o) => o.id),
        again.map((o) => (o.state === 'retry' ? o.attempts : null)),
        again.map((o) => (o.state === 'retry' ? o.retryInMs : 0)),
        leaseId,
      ],
    );
  }
  const final = outcomes.filter(isFinal);
  if (final.length > 0) await writeOutcomes(c, worker, final, [], 'urls.id = x.i AND urls.lease_id = $15', [leaseId]);
}

/**
 * What a rendered page's requests fetched, on rows still queued (the page's discoveries, admitted
 * just before, made any that were new); a row another worker holds is left to it, which fetches it again.
 */
async function recordPageRequests(c: pg.PoolClient, worker: string, taken: BatchResult['pageRequests']): Promise<void> {
  const final = taken.filter((t) => isFinal(t.outcome));
  if (final.length === 0) return;
  const outcomes = final.map((t) => t.outcome as FinalOutcome);
  await writeOutcomes(c, worker, outcomes, final.map((t) => t.url), "urls.url = x.u AND urls.state = 'queued'", []);
}

function isFinal(o: UrlOutcome): o is FinalOutcome {
  return o.state !== 'retry' && o.state !== 'released';
}

/** One UPDATE for many outcomes; `where` picks each one's row (x.i its id, x.u its URL). */
async function writeOutcomes(c: pg.PoolClient, worker: string, final: FinalOutcome[], urls: string[], where: string, extra: unknown[]): Promise<void> {
  const col = <T>(f: (o: FinalOutcome) => T) => final.map(f);
  await c.query(
    `UPDATE urls SET state = x.st, http_status = x.hs, content_type = x.ct, bytes = x.b, local_path = x.lp,
       redirect_to_id = (SELECT id FROM urls t WHERE t.url = x.rt), error = x.e, title = x.ti, skip_reason = x.sr,
       fetched_at = x.fa, attempts = x.a, retry_at = NULL,
       fetched_by = CASE WHEN x.fa IS NULL THEN urls.fetched_by ELSE $13 END,
       fetches = urls.fetches + CASE WHEN x.fa IS NULL THEN 0 ELSE 1 END
     FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::int[], $14::text[])
       AS x(i, st, hs, ct, b, lp, rt, e, ti, sr, fa, a, u)
     WHERE ${where}`,
    [
      col((o) => o.id),
      col((o) => o.state),
      col((o) => o.httpStatus),
      col((o) => o.contentType),
      col((o) => o.bytes),
      col((o) => o.localPath),
      col((o) => o.redirectTo),
      col((o) => o.error),
      col((o) => o.title),
      col((o) => o.skipReason),
      col((o) => o.fetchedAt),
      col((o) => o.attempts),
      worker,
      urls.length === 0 ? final.map(() => null) : urls,
      ...extra,
    ],
  );
}
