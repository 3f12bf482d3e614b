import { getDomain } from 'tldts';
import type { Scope } from '../../shared/job.js';
import { canonicalize } from './url/canonical.js';

/**
 * The registrable domain (example.org for www.example.org). Private suffixes count as public ones,
 * so a seed on someone.github.io does not bring every github.io site into scope. IP addresses and
 * single-label hosts such as localhost have none and stand for themselves.
 */
function registrableDomainOf(hostname: string): string {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

/** The seed's directory: its origin and path up to and including the last '/'. */
function prefixOf(seed: URL): string {
  return seed.origin + seed.pathname.slice(0, seed.pathname.lastIndexOf('/') + 1);
}

/** Decides whether a canonical URL belongs to the crawl. */
export class ScopeRules {
  private readonly modeMatch: (url: URL) => boolean;
  private readonly include: RegExp[];
  private readonly exclude: RegExp[];

  constructor(scope: Scope, seeds: string[]) {
    const seedUrls = seeds.map((s) => {
      const canonical = canonicalize(s);
      if (canonical === null) throw new Error(`Seed is not an http(s) URL: ${s}`);
      return new URL(canonical);
    });
    this.include = scope.include.map((source) => new RegExp(source));
    this.exclude = scope.exclude.map((source) => new RegExp(source));
    this.modeMatch = ScopeRules.modeMatcher(scope.mode, seedUrls);
  }

  private static modeMatcher(mode: Scope['mode'], seeds: URL[]): (url: URL) => boolean {
    switch (mode) {
      case 'host': {
        const hosts = new Set(seeds.map((s) => s.host));
        return (url) => hosts.has(url.host);
      }
      case 'domain': {
        const domains = new Set(seeds.map((s) => registrableDomainOf(s.hostname)));
        return (url) => domains.has(registrableDomainOf(url.hostname));
      }
      case 'prefix': {
        const prefixes = seeds.map(prefixOf);
        return (url) => prefixes.some((p) => (url.origin + url.pathname).startsWith(p));
      }
    }
  }

  inScope(canonicalUrl: string): boolean {
    let url: URL;
    try {
      url = new URL(canonicalUrl);
    } catch {
      return false;
    }
    if (this.exclude.some((re) => re.test(canonicalUrl))) return false;
    return this.modeMatch(url) || this.include.some((re) => re.test(canonicalUrl));
  }
}
