/**
 * How the viewer learns where the archived page navigated to. The page is in a cross-origin,
 * sandboxed frame, so its location can't be read; the host's archive server may add a one-line
 * script to each served page that posts `{ type: 'harvest:location', href: location.href }` to the
 * parent. Without it the viewer knows only the pages it opened itself (URL bar, page list, history).
 */
export const LOCATION_MESSAGE = 'harvest:location';

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
