import type { Cookie } from './job.js';

export class CookiesTxtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CookiesTxtError';
  }
}

const HTTP_ONLY = '#HttpOnly_';

/**
 * Reads a Netscape cookies.txt (browsers' export extensions, curl, wget): one cookie per line,
 * seven tab-separated fields (domain, subdomains TRUE/FALSE, path, secure TRUE/FALSE, expiry in
 * Unix seconds, name, value); '#' lines are comments, except the `#HttpOnly_` prefix curl writes.
 */
export function parseCookiesTxt(text: string): Cookie[] {
  const cookies: Cookie[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    let line = raw;
    if (line.startsWith(HTTP_ONLY)) line = line.slice(HTTP_ONLY.length);
    else if (line.startsWith('#') || line.trim() === '') return;
    const f = line.split('\t');
    if (f.length !== 7) throw new CookiesTxtError(`line ${i + 1}: expected 7 tab-separated fields, found ${f.length}`);
    const [domain, subdomains, path, secure, expires, name, value] = f as [string, string, string, string, string, string, string];
    const flag = (v: string, what: string): boolean => {
      if (/^true$/i.test(v)) return true;
      if (/^false$/i.test(v)) return false;
      throw new CookiesTxtError(`line ${i + 1}: ${what} must be TRUE or FALSE, found '${v}'`);
    };
    if (!/^\d+$/.test(expires)) throw new CookiesTxtError(`line ${i + 1}: expiry must be Unix seconds, found '${expires}'`);
    if (domain === '' || name === '' || !path.startsWith('/')) throw new CookiesTxtError(`line ${i + 1}: needs a domain, a name and a path starting with '/'`);
    cookies.push({
      domain: domain.replace(/^\./, '').toLowerCase(),
      includeSubdomains: flag(subdomains, 'the subdomains field'),
      path,
      secure: flag(secure, 'the secure field'),
      expires: Number(expires),
      name,
      value,
    });
  });
  return cookies;
}
