import type { IncomingMessage } from 'node:http';

/**
 * Each archive of `harvest serve` is served under a host name of its own, `<job-id>.localhost`, on
 * one viewer port. Browsers send every `*.localhost` name to loopback themselves (RFC 6761; Chromium
 * and Firefox do), and to a browser each such name is a site of its own: a cookie is kept per host
 * name (ports don't count), Chromium 156 refuses `Domain=localhost`, and storage is per origin. The
 * app stays on `127.0.0.1`, an address no `Domain` attribute can name.
 */
export const ARCHIVE_HOST_SUFFIX = '.localhost';

/** A job id that can be a DNS label (job ids are UUIDs). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `http://<job>.localhost:<port>`, or null for an id that can't be a host name. */
export function archiveOrigin(jobId: string, port: number): string | null {
  return LABEL.test(jobId) ? `http://${jobId}${ARCHIVE_HOST_SUFFIX}:${port}` : null;
}

/**
 * The job a request names in its Host header, `<job>.localhost:<port>` on this port; null for any
 * other name, which is how a DNS-rebinding page (its own name in Host) is turned away.
 */
export function jobOfHost(req: IncomingMessage, port: number): string | null {
  const m = /^([a-z0-9-]{1,63})\.localhost:(\d{1,5})$/.exec((req.headers.host ?? '').toLowerCase());
  return m && Number(m[2]) === port && LABEL.test(m[1]!) ? m[1]! : null;
}
