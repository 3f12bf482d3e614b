/**
 * Calls `handler` on Ctrl-C and SIGTERM until the returned function is called: every long CLI
 * command stops cleanly on them rather than dying mid-write.
 */
export function onInterrupt(handler: () => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
