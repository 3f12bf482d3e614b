/**
 * An earlier capture of a mirror path is served by the archive host under `@capture/<n>/<path>`, on
 * the archive's own origin, so the page's relative references stay in that capture. '@' can't begin
 * a mirror entry: the mirror's top level holds index.html and one folder per host, and '@' is never
 * part of a host name.
 */
export const CAPTURE_PATH_PREFIX = '@capture';

/** The viewer's path of capture `capture` of mirror path `localPath`. */
export function capturePath(capture: number, localPath: string): string {
  return `${CAPTURE_PATH_PREFIX}/${capture}/${localPath}`;
}

/** The capture and mirror path a viewer path names; null for a path of the mirror itself. */
export function parseCapturePath(viewerPath: string): { capture: number; localPath: string } | null {
  const m = /^@capture\/([1-9]\d{0,8})\/(.+)$/.exec(viewerPath);
  return m ? { capture: Number(m[1]), localPath: m[2]! } : null;
}
