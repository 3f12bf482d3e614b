import type { Field } from './fields.js';

/** Request headers whose values are credentials: kept out of the WARC files, which exports carry. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * The request headers as a request record keeps them: every header that was sent, in order, with
 * a credential's value replaced by a note (an authorization keeps its scheme, a cookie its name),
 * so the record shows what kind of credential went out without handing it to whoever gets the
 * archive.
 */
export function withholdCredentials(headers: readonly Field[]): Field[] {
  return headers.map(([name, value]): Field => {
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) return [name, value];
    if (lower === 'cookie') {
      const names = value.split(';').map((c) => c.split('=')[0]!.trim()).filter((n) => n !== '');
      return [name, names.map((n) => `${n}=(withheld)`).join('; ')];
    }
    const scheme = value.trim().split(/\s+/)[0] ?? '';
    return [name, `${scheme} (withheld)`];
  });
}
