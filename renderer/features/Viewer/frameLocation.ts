import { LOCATION_MESSAGE } from '../../../shared/frameLocation.js';

/**
 * How the viewer learns where the archived page navigated to: the archive servers add a script to
 * each HTML page that posts its location to the parent (see shared/frameLocation.ts).
 */

/** The URL of a mirror file in the viewer. Each path segment is encoded, the '/'s kept. */
export function viewerUrl(viewerBase: string, jobId: string, localPath: string): string {
  const path = localPath
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `${viewerBase}${encodeURIComponent(jobId)}/${path}`;
}

/** The mirror path a frame reports, if the message is a location report for this archive. */
export function localPathFromMessage(data: unknown, viewerBase: string, jobId: string): string | null {
  if (!data || typeof data !== 'object') return null;
  const { type, href } = data as { type?: unknown; href?: unknown };
  if (type !== LOCATION_MESSAGE || typeof href !== 'string') return null;
  const prefix = viewerUrl(viewerBase, jobId, '');
  if (!href.startsWith(prefix)) return null;
  const rest = href.slice(prefix.length).split(/[?#]/)[0] ?? '';
  try {
    return decodeURIComponent(rest) || 'index.html';
  } catch {
    return null;
  }
}
