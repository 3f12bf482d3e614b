import type { SkipReason } from '../../../shared/crawl.js';
import type { Job } from '../../../shared/job.js';
import { ScopeRules } from '../scope.js';
import type { Catalogue, Readmission, UrlRow } from '../store/catalogue.js';
import { queryVariantKey, trapReason } from '../traps.js';
import type { ProgressMeter } from './progress.js';

const SEED_REDIRECTS = 'seed_redirects';

export interface Discovery {
  /** Canonical URL. */
  url: string;
  parentId: number | null;
  parentDepth: number;
  /** Redirect targets keep their source's depth: a hop is not a level. */
  sameDepth: boolean;
  via: string;
  requisite: boolean;
  /** Whether the discovering document lies in scope: offsite documents only pull in requisites. */
  parentInScope: boolean;
  typeHint: string | null;
  redirectHops: number;
  /** Found on a page past the most links queued from one page: recorded, not queued. */
  pastLinkCap?: boolean;
  /** A focused harvest's queue score (see FocusPolicy). */
  score?: number;
  /** A focused harvest does not follow it (a link on an off-topic page whose own score did not pass). */
  pruned?: boolean;
}

/**
 * Admission to the run queue: every discovered URL gets one row, queued or skipped with its reason.
 * Runs inside the caller's transaction.
 */
export class Frontier {
  private scopeRules: ScopeRules;
  /** Where seeds redirected to: they define the scope as the seeds do. */
  private readonly seedRedirects: string[];
  /** Set once the page limit is reached: from then on only requisites of saved pages are admitted. */
  pagesLimitReached = false;

  constructor(
    private readonly job: Job,
    private readonly catalogue: Catalogue,
    private readonly meter: ProgressMeter,
    private readonly onQueued: (site: string, score?: number) => void,
  ) {
    this.seedRedirects = JSON.parse(catalogue.getMeta(SEED_REDIRECTS) ?? '[]') as string[];
    this.scopeRules = new ScopeRules(job.scope, [...job.seeds, ...this.seedRedirects]);
  }

  get scope(): ScopeRules {
    return this.scopeRules;
  }

  /**
   * A seed that redirects (http to https, example.org to www.example.org) names the site the
   * archivist meant: its target joins the seeds in defining the scope, for this run and resumes.
   */
  followSeedRedirect(target: string): void {
    if (this.scopeRules.inScope(target)) return;
    this.seedRedirects.push(target);
    this.catalogue.setMeta(SEED_REDIRECTS, JSON.stringify(this.seedRedirects));
    this.scopeRules = new ScopeRules(this.job.scope, [...this.job.seeds, ...this.seedRedirects]);
  }

  /** Admits a canonical seed URL at depth 0. */
  admitSeed(url: string, score?: number): UrlRow {
    return this.admit({
      ...(score !== undefined && { score }),
      url,
      parentId: null,
      parentDepth: 0,
      sameDepth: true,
      via: 'seed',
      requisite: false,
      parentInScope: true,
      typeHint: 'html',
      redirectHops: 0,
    });
  }

  /** Returns the URL's row (new or existing). */
  admit(d: Discovery): UrlRow {
    const existing = this.catalogue.lookup(d.url);
    if (existing) {
      if (existing.capture < this.catalogue.currentCapture()) this.readmit(existing, d);
      else this.maybeRequeue(existing, d);
      // A focused harvest's queued URL met again through a better link moves up.
      if (d.score !== undefined && !d.pruned && existing.state === 'queued' && this.catalogue.raiseScore(existing.id, d.score)) {
        this.onQueued(existing.site, d.score);
      }
      return existing;
    }
    // A site is an origin: robots.txt and politeness both apply per scheme, host and port.
    const site = new URL(d.url).origin;
    const admission = this.admission(d);
    const row = this.catalogue.insert({ url: d.url, site, ...admission });
    this.meter.discovered(admission.state, admission.skipReason);
    if (admission.state === 'queued') this.onQueued(site, d.score);
    return row;
  }

  /** A URL of an earlier capture met again in this one is admitted as if it were new. */
  private readmit(row: UrlRow, d: Discovery): void {
    const admission = this.admission(d);
    this.catalogue.readmit(row, admission);
    this.meter.discovered(admission.state, admission.skipReason);
    if (admission.state === 'queued') this.onQueued(row.site, d.score);
  }

  /** What admission gives a discovered URL: its depth, queued or skipped (and why), and the rest of its row. */
  private admission(d: Discovery): Readmission {
    const depth = d.sameDepth ? d.parentDepth : d.parentId === null ? 0 : d.parentDepth + 1;
    const reason = this.skipReason(d, depth) ?? (d.pastLinkCap ? 'limit:links-per-page' : null);
    return {
      depth,
      state: reason === null ? 'queued' : 'skipped',
      requisite: d.requisite,
      parentId: d.parentId,
      via: d.via,
      typeHint: d.typeHint,
      redirectHops: d.redirectHops,
      skipReason: reason,
      score: d.score ?? null,
    };
  }

  private skipReason(d: Discovery, depth: number): SkipReason | null {
    const inScope = this.scope.inScope(d.url);
    const offsiteRequisite = !inScope && d.requisite && this.job.offsiteRequisites && this.followsFromOffsite(d);
    if (!inScope && !offsiteRequisite) return 'scope';
    const trap = trapReason(d.url, this.job.traps);
    if (trap) return trap;
    if (d.pruned) return 'focus:off-topic';
    if (!d.requisite) {
      const max = this.job.limits.maxDepth;
      if (max !== null && depth > max) return 'limit:depth';
      if (this.pagesLimitReached) return 'limit:pages';
    }
    const key = queryVariantKey(d.url);
    if (key !== null && this.catalogue.bumpQueryVariant(key) > this.job.traps.maxQueryVariantsPerPath) {
      return 'trap:query-variants';
    }
    return null;
  }

  /** An offsite document may pull in what it needs to render, but not further frames of its own. */
  private followsFromOffsite(d: Discovery): boolean {
    return d.parentInScope || (d.via !== 'iframe' && d.via !== 'frame');
  }

  /**
   * A URL first met as out of scope, too deep or past a page's link cap may be met again as a
   * requisite, at a shallower depth or on another page; it then deserves its fetch.
   */
  private maybeRequeue(row: UrlRow, d: Discovery): void {
    if (row.state !== 'skipped' || d.pastLinkCap) return;
    if (row.skip_reason !== 'scope' && row.skip_reason !== 'limit:depth' && row.skip_reason !== 'limit:links-per-page' && row.skip_reason !== 'focus:off-topic') return;
    const depth = d.sameDepth ? d.parentDepth : d.parentDepth + 1;
    if (this.skipReason(d, depth) !== null) return;
    const reason = row.skip_reason;
    this.catalogue.requeue(row, Math.min(depth, row.depth), d.requisite);
    if (d.score !== undefined) this.catalogue.raiseScore(row.id, d.score);
    this.meter.requeued(reason);
    this.onQueued(row.site, d.score);
  }
}
