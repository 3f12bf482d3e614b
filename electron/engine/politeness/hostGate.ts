/**
 * Per-site admission: at most N requests in flight and a minimum gap between request starts.
 * One registry is shared by every crawl in the process, so two jobs that reach the same site
 * together still stay within the stricter of their politeness settings.
 */
export interface GateLimits {
  maxConnections: number;
  delayMs: number;
}

interface SiteSlot {
  active: number;
  lastStartMs: number;
}

export class HostGateRegistry {
  private readonly slots = new Map<string, SiteSlot>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes a slot for `site` if the limits allow one now. Returns a release function, or the number of
   * milliseconds to wait before asking again (Infinity: wait for a running request to finish).
   */
  tryAcquire(site: string, limits: GateLimits): (() => void) | number {
    const slot = this.slots.get(site) ?? { active: 0, lastStartMs: -Infinity };
    if (slot.active >= limits.maxConnections) return Infinity;
    const t = this.now();
    const readyAt = slot.lastStartMs + limits.delayMs;
    if (t < readyAt) return readyAt - t;
    slot.active++;
    slot.lastStartMs = t;
    this.slots.set(site, slot);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slot.active--;
      if (slot.active === 0 && this.now() - slot.lastStartMs >= limits.delayMs) this.slots.delete(site);
    };
  }

  activeFor(site: string): number {
    return this.slots.get(site)?.active ?? 0;
  }
}
