/**
 * Per-host admission: at most N requests in flight and a minimum gap between request starts.
 * One registry is shared by every crawl in the process, so two jobs that reach the same host
 * together stay within the stricter of their politeness settings.
 */
export interface GateLimits {
  maxConnections: number;
  delayMs: number;
}

/** What a crawl needs of a gate registry; shared across worker threads by SharedHostGates. */
export interface HostGates {
  tryAcquire(host: string, limits: GateLimits): (() => void) | number;
  /**
   * A crawl's own limits were changed while it runs: the host's slot takes them at once (it keeps
   * the strictest otherwise, so a raise would never show); another crawl of the same host brings
   * its stricter limits back with its next request.
   */
  relax(host: string, limits: GateLimits): void;
  onRelease(listener: () => void): () => void;
}

interface HostSlot {
  active: number;
  lastStartMs: number;
  /** The strictest limits asked for while the slot has been in use. */
  limits: GateLimits;
}

export class HostGateRegistry implements HostGates {
  private readonly slots = new Map<string, HostSlot>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes a slot for `host` if the limits allow one now. Returns a release function, or the number
   * of milliseconds to wait before asking again (Infinity: until a running request is released,
   * which every `onRelease` listener hears about).
   */
  tryAcquire(host: string, limits: GateLimits): (() => void) | number {
    let slot = this.slots.get(host);
    if (!slot) {
      slot = { active: 0, lastStartMs: -Infinity, limits: { ...limits } };
      this.slots.set(host, slot);
    } else {
      slot.limits.maxConnections = Math.min(slot.limits.maxConnections, limits.maxConnections);
      slot.limits.delayMs = Math.max(slot.limits.delayMs, limits.delayMs);
    }
    if (slot.active >= slot.limits.maxConnections) return Infinity;
    const t = this.now();
    const readyAt = slot.lastStartMs + slot.limits.delayMs;
    if (t < readyAt) return readyAt - t;
    slot.active++;
    slot.lastStartMs = t;
    const taken = slot;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      taken.active--;
      if (taken.active === 0 && this.now() - taken.lastStartMs >= taken.limits.delayMs) this.slots.delete(host);
      // Other crawls waiting on this host have no request of their own that would wake them.
      queueMicrotask(() => {
        for (const l of this.listeners) l();
      });
    };
  }

  relax(host: string, limits: GateLimits): void {
    const slot = this.slots.get(host);
    if (slot) slot.limits = { ...limits };
  }

  /** Calls `listener` whenever a slot is released; returns the function that unsubscribes. */
  onRelease(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  inFlight(host: string): number {
    return this.slots.get(host)?.active ?? 0;
  }
}
