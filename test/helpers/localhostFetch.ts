import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch, type RequestInit } from 'undici';

/**
 * Browsers send every `*.localhost` name to loopback themselves; Node asks the system resolver,
 * which may not know them. This fetch connects every name to 127.0.0.1 and sends it as the Host.
 */
const lookup: LookupFunction = (_host, opts, cb) => {
  if (opts.all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
};
const loopback = new Agent({ connect: { lookup } });

export function localhostFetch(url: string | URL, init: RequestInit = {}) {
  return undiciFetch(url, { ...init, dispatcher: loopback });
}
