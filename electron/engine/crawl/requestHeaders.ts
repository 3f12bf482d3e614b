import { contactEmail, type Cookie, type Job } from '../../../shared/job.js';
import type { HeaderPair } from '../fetch/headers.js';

/**
 * The job's request settings as headers: those every request carries (Accept-Language, From, the
 * archivist's own) and those that depend on the URL (cookies that match it; basic authentication
 * only under its URL prefix or, without one, to the seeds' sites, so credentials never go to
 * another host).
 */
export class RequestHeaders {
  readonly common: readonly HeaderPair[];
  private readonly cookies: readonly Cookie[];
  private readonly authorization: string | null;
  private readonly authOrigins: ReadonlySet<string>;
  private readonly authPrefix: string;

  constructor(job: Job, private readonly nowS: () => number = () => Date.now() / 1000) {
    const r = job.request;
    const common: HeaderPair[] = [];
    if (r.acceptLanguage !== '') common.push(['Accept-Language', r.acceptLanguage]);
    const email = contactEmail(job);
    if (email !== null) common.push(['From', email]);
    for (const line of r.headers) {
      const colon = line.indexOf(':');
      common.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
    this.common = common;
    this.cookies = r.cookies;
    const { username, password, urlPrefix } = r.basicAuth;
    this.authorization = username === '' ? null : `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
    this.authOrigins = new Set(job.seeds.map((s) => new URL(s).origin));
    this.authPrefix = urlPrefix;
  }

  /** The headers that depend on `url`: Cookie and Authorization, when they apply. */
  for(url: string): HeaderPair[] {
    const out: HeaderPair[] = [];
    const u = new URL(url);
    const cookie = this.cookieHeader(u);
    if (cookie !== null) out.push(['Cookie', cookie]);
    const authHere = this.authPrefix === '' ? this.authOrigins.has(u.origin) : url.startsWith(this.authPrefix);
    if (this.authorization !== null && authHere) {
      out.push(['Authorization', this.authorization]);
    }
    return out;
  }

  /** RFC 6265 5.4: domain and path match, secure only over https, expired ones left out; longer paths first. */
  private cookieHeader(u: URL): string | null {
    if (this.cookies.length === 0) return null;
    const host = u.hostname.toLowerCase();
    const now = this.nowS();
    const matching = this.cookies.filter(
      (c) =>
        (host === c.domain || (c.includeSubdomains && host.endsWith(`.${c.domain}`))) &&
        pathMatches(u.pathname, c.path) &&
        (!c.secure || u.protocol === 'https:') &&
        (c.expires === 0 || c.expires > now),
    );
    if (matching.length === 0) return null;
    matching.sort((a, b) => b.path.length - a.path.length);
    return matching.map((c) => `${c.name}=${c.value}`).join('; ');
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
