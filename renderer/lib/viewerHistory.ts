/**
 * The viewer's own back/forward stack of mirror paths. The archived page lives in a cross-origin
 * frame, so its history can't be read or driven from here; the viewer keeps this one instead.
 */
export interface ViewerHistory {
  entries: string[];
  index: number;
}

export const emptyHistory: ViewerHistory = { entries: [], index: -1 };

export const currentPath = (h: ViewerHistory): string | null => h.entries[h.index] ?? null;
export const canGoBack = (h: ViewerHistory): boolean => h.index > 0;
export const canGoForward = (h: ViewerHistory): boolean => h.index < h.entries.length - 1;

/** Visiting a new page drops the forward entries; revisiting the current one changes nothing. */
export function visit(h: ViewerHistory, path: string): ViewerHistory {
  if (currentPath(h) === path) return h;
  return { entries: [...h.entries.slice(0, h.index + 1), path], index: h.index + 1 };
}

export const back = (h: ViewerHistory): ViewerHistory => (canGoBack(h) ? { ...h, index: h.index - 1 } : h);
export const forward = (h: ViewerHistory): ViewerHistory => (canGoForward(h) ? { ...h, index: h.index + 1 } : h);
