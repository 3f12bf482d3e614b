/**
 * A page that redirects "in a moment" (`setTimeout(() => location.replace(…), 500)` while it loads)
 * would be captured before it goes, since the network is quiet meanwhile. The init script notes when
 * the last short timer set before the page finished loading (its load handlers included) falls due;
 * the capture waits for it once, after the page has loaded and settled, so the redirect is seen and
 * followed. Timers set later (a carousel rescheduling itself) are not waited for, and no timer longer
 * than REDIRECT_TIMER_MS is: the wait costs a page one second at most.
 *
 * Source text, evaluated by the browser: nothing here may close over Node values.
 */

/** The longest timer waited for. */
const REDIRECT_TIMER_MS = 1_000;

const DUE = `Symbol.for('harvest.loadTimersDue')`;

/** Init script (every window): notes when the short timers set while loading fall due. */
export const TIMER_WATCH = `(() => {
  const set = window.setTimeout;
  let due = 0;
  let loading = true;
  window.addEventListener('load', () => set(() => { loading = false; }, 0), { once: true });
  window.setTimeout = function setTimeout(handler, ms, ...rest) {
    const delay = Math.max(0, Number(ms) || 0);
    if (loading && delay <= ${REDIRECT_TIMER_MS}) due = Math.max(due, performance.now() + delay);
    return set(handler, ms, ...rest);
  };
  Object.defineProperty(window, ${DUE}, { value: () => due });
})();`;

/** Capture step: resolves once the timers the page set while loading have run. */
export const WAIT_FOR_TIMERS = `(async () => {
  const due = window[${DUE}];
  const left = typeof due === 'function' ? due() - performance.now() : 0;
  if (left > 0) await new Promise((r) => setTimeout(r, left + 20));
})()`;
