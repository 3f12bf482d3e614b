import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes of large buffers made on a thread between two full collections asked for here. A large
 * body (over 1 MiB) is garbage as soon as it is archived, but V8 collects a heap by the heap's own
 * growth, which such buffers hardly add to: on the hostile-site bench the crawl loop and a document
 * worker each held 50-90 MB of bodies already archived at the peak, and the crawl peaked 90 MB lower
 * when every thread collected every 100 ms. A collection takes some 10-30 ms of the thread.
 */
export const COLLECT_AFTER_BYTES = 16 * 1024 * 1024;

let made = 0;
let collect: (() => void) | null = null;

/**
 * Says a large buffer of `bytes` is about to be made on this thread (a body over 1 MiB). Once such
 * buffers add up to COLLECT_AFTER_BYTES since the last collection, a full collection runs first,
 * freeing those already done with before the next is made. Returns whether it ran.
 */
export function beforeLargeBuffer(bytes: number): boolean {
  made += bytes;
  if (made < COLLECT_AFTER_BYTES) return false;
  made = bytes;
  collect ??= exposedGc();
  collect();
  return true;
}

/** V8's `gc`, reached through its --expose-gc flag set for this process (as host/crawlHeap.ts sets its heap growth), in a context of its own. */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
