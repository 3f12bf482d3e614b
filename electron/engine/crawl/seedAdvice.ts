import type { UrlRecord } from '../../../shared/crawl.js';

/**
 * Why a seed gave nothing, in an archivist's words, with what to try. The record keeps the
 * technical cause (`harvest list`, the URL detail); this is what the job and the CLI say.
 */
export function seedAdvice(canonicalSeed: string, record: UrlRecord): string {
  const moved = record.url !== canonicalSeed ? `it redirects to ${record.url}, where ` : '';
  return moved + outcomeAdvice(record);
}

function outcomeAdvice(r: UrlRecord): string {
  if (r.state === 'http-error') return httpAdvice(r.httpStatus ?? 0);
  if (r.state === 'skipped') {
    if (r.skipReason === 'robots:unreachable') {
      const status = /robots\.txt answered HTTP (\d{3})/.exec(r.error ?? '')?.[1];
      if (status !== undefined) {
        return `the site's robots.txt answered with a server error (HTTP ${status}), so its rules could not be read and, as the robots standard asks, the site was left alone; try again later`;
      }
      return networkAdvice(r.url, r.error ?? '');
    }
    if (r.skipReason === 'robots') return "the site's robots.txt asks crawlers to keep out of this address";
    if (r.skipReason === 'scope' || r.skipReason?.startsWith('trap:')) return "the address is outside the harvest's scope";
    return `it was not fetched (${r.reason ?? r.skipReason ?? 'skipped'})`;
  }
  if (r.state === 'redirect') return 'its redirects lead nowhere usable (a loop, or too many hops)';
  return networkAdvice(r.url, r.error ?? '');
}

function httpAdvice(status: number): string {
  if (status === 404 || status === 410) return `the server has no page at this address (HTTP ${status}): check the address for typing mistakes`;
  if (status === 401 || status === 403) return `the server refused access (HTTP ${status}): the page may need a login, or the site may block crawlers`;
  if (status === 429) return `the server asked for fewer requests (HTTP 429): try again later, with a longer delay between requests`;
  if (status >= 500) return `the server had a problem (HTTP ${status}): try again later`;
  return `the server refused the request (HTTP ${status})`;
}

/** The connection-level failures, from the record's `code: message` error text. */
function networkAdvice(url: string, error: string): string {
  let host = url;
  let port = '';
  try {
    const u = new URL(url);
    host = u.hostname;
    port = u.port;
  } catch {
    // The record's URL is canonical; keep the whole text if not.
  }
  if (/\bdns:|ENOTFOUND/.test(error)) return `no site called ${host} was found: check the spelling of the address`;
  if (/EAI_AGAIN/.test(error)) return `the name ${host} could not be looked up just now: check the network connection, then try again`;
  if (/ECONNREFUSED/.test(error)) {
    return port !== ''
      ? `nothing answered at ${host} on port ${port}: check the port number (most sites need none), or whether the site is up`
      : `nothing answered at ${host}: the site may be down, or the address may be wrong`;
  }
  if (/EHOSTUNREACH|ENETUNREACH/.test(error)) return `${host} could not be reached over the network: check the network connection and the address`;
  if (/timeout|deadline|ETIMEDOUT/.test(error)) return `${host} did not answer in time: the site may be down or very slow; try again later`;
  if (/\btls:/.test(error)) return `the secure (https) connection to ${host} could not be set up: the site's certificate was not accepted`;
  if (/ECONNRESET|EPIPE/.test(error)) return `${host} broke off the connection: try again later`;
  return `no usable answer came from ${host}${error === '' ? '' : ` (${error})`}`;
}
