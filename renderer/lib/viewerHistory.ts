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

/**
 * A redirect (a meta refresh, a script's own navigation) takes the place of the page it left, as a
 * browser's history does, so Back gets past a page that sends you on. An entry that then repeats its
 * neighbour is one entry.
 */
export function replace(h: ViewerHistory, path: string): ViewerHistory {
  if (h.index < 0) return visit(h, path);
  if (currentPath(h) === path) return h;
  const entries = h.entries.slice();
  entries[h.index] = path;
  let index = h.index;
  if (entries[index - 1] === path) {
    entries.splice(index, 1);
    index--;
  } else if (entries[index + 1] === path) entries.splice(index + 1, 1);
  return { entries, index };
}

export const back = (h: ViewerHistory): ViewerHistory => (canGoBack(h) ? { ...h, index: h.index - 1 } : h);
export const forward = (h: ViewerHistory): ViewerHistory => (canGoForward(h) ? { ...h, index: h.index + 1 } : h);
