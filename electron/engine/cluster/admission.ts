import type { SkipReason } from '../../../shared/crawl.js';
import type { Job } from '../../../shared/job.js';
import type { Discovery } from '../crawl/frontier.js';
import { ScopeRules } from '../scope.js';
import { queryVariantKey, trapReason } from '../traps.js';
import { predictedLocalPath } from '../url/localPath.js';

/** A discovered URL as a worker reports it: what the local frontier would insert, before query-variant counting. */
export interface ClusterDiscovery {
  url: string;
  site: string;
  depth: number;
  requisite: boolean;
  parentId: number | null;
  via: string;
  typeHint: string | null;
  redirectHops: number;
  /** null: to be queued, unless its path has too many query variants (counted in the database). */
  skipReason: SkipReason | null;
  /** The path whose distinct queries are counted (trap:query-variants), or null. */
  variantKey: string | null;
  /** A focused harvest's queue score (see focus/focusJudge.ts); null otherwise. */
  score: number | null;
}

/**
 * The local frontier's admission rules (scope with the seeds' redirects, offsite requisites, trap
 * guards, a focused harvest's pruned links, depth limit, links per page) as a pure decision over one discovered URL, so a worker
 * decides where its rows go before its batch commits. What needs every worker's knowledge (the URL
 * already known, the query-variant count) is settled by the commit in PostgreSQL.
 */
export class ClusterAdmission {
  private scopeRules: ScopeRules;
  private seedRedirects: string[];

  constructor(
    private readonly job: Job,
    seedRedirects: string[],
  ) {
    this.seedRedirects = [...seedRedirects];
    this.scopeRules = new ScopeRules(job.scope, [...job.seeds, ...seedRedirects]);
  }

  get scope(): ScopeRules {
    return this.scopeRules;
  }

  /** Brings in the seeds' redirect targets another worker found. */
  updateSeedRedirects(all: string[]): void {
    if (all.length === this.seedRedirects.length) return;
    this.seedRedirects = [...all];
    this.scopeRules = new ScopeRules(this.job.scope, [...this.job.seeds, ...all]);
  }

  /** A seed's redirect target outside the scope joins the seeds; returns it when it is new. */
  followSeedRedirect(target: string): string | null {
    if (this.scopeRules.inScope(target)) return null;
    this.updateSeedRedirects([...this.seedRedirects, target]);
    return target;
  }

  decide(d: Discovery): ClusterDiscovery {
    const depth = d.sameDepth ? d.parentDepth : d.parentId === null ? 0 : d.parentDepth + 1;
    const reason = this.skipReason(d, depth) ?? (d.pastLinkCap ? 'limit:links-per-page' : null);
    return {
      url: d.url,
      site: new URL(d.url).origin,
      depth,
      requisite: d.requisite,
      parentId: d.parentId,
      via: d.via,
      typeHint: d.typeHint,
      redirectHops: d.redirectHops,
      skipReason: reason,
      variantKey: reason === null ? queryVariantKey(d.url) : null,
      score: d.score ?? null,
    };
  }

  /**
   * Where a saved copy's reference to a discovered URL points: its predicted file when it is to be
   * fetched, else nowhere (the reference stays absolute and works online).
   */
  plannedTarget(c: ClusterDiscovery): string | null {
    if (c.skipReason !== null) return null;
    const hint = c.typeHint === 'html' || c.typeHint === 'css' ? c.typeHint : null;
    return predictedLocalPath(c.url, hint);
  }

  private skipReason(d: Discovery, depth: number): SkipReason | null {
    const inScope = this.scope.inScope(d.url);
    const followsFromOffsite = d.parentInScope || (d.via !== 'iframe' && d.via !== 'frame');
    const offsiteRequisite = !inScope && d.requisite && this.job.offsiteRequisites && followsFromOffsite;
    if (!inScope && !offsiteRequisite) return 'scope';
    const trap = trapReason(d.url, this.job.traps);
    if (trap) return trap;
    if (d.pruned) return 'focus:off-topic';
    if (!d.requisite) {
      const max = this.job.limits.maxDepth;
      if (max !== null && depth > max) return 'limit:depth';
    }
    return null;
  }
}
