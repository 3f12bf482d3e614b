import type { ExportProgress } from '../../../shared/metadata.js';

const EVERY_MS = 100;

/**
 * Passes progress on at most every 100 ms, and always when the phase changes or completes, so
 * per-chunk updates of a large export do not flood a terminal or the renderer's event channel.
 */
export function throttleProgress(onProgress: ((p: ExportProgress) => void) | undefined): (p: ExportProgress) => void {
  if (onProgress === undefined) return () => {};
  let lastMs = 0;
  let lastPhase = '';
  return (p) => {
    const now = Date.now();
    const complete = p.totalBytes > 0 && p.doneBytes >= p.totalBytes;
    if (p.phase !== lastPhase || complete || now - lastMs >= EVERY_MS) {
      lastMs = now;
      lastPhase = p.phase;
      onProgress(p);
    }
  };
}
