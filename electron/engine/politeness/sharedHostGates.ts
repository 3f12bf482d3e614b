import { BroadcastChannel } from 'node:worker_threads';
import type { GateLimits, HostGates } from './hostGate.js';

/**
 * Host gates shared by crawls in different worker threads of one process, so two jobs on one host
 * keep to the stricter of their limits as they do within a thread (HostGateRegistry).
 *
 * State lives in a SharedArrayBuffer: hosts hash to one of SLOTS slots, guarded by one spin lock
 * held for a few instructions. Two busy hosts that share a slot are gated together, which can only
 * slow them, never exceed a limit. Releases are announced to the other threads on a BroadcastChannel.
 */
const SLOTS = 4096;
/** Int32 fields per slot: host hash, requests in flight, max connections, delay in ms. */
const FIELDS = 4;
const LOCK = 0;
const INT32_BYTES = 4 * (1 + SLOTS * FIELDS);
const FLOAT64_OFFSET = Math.ceil(INT32_BYTES / 8) * 8;
const CHANNEL = 'harvest:host-gates';

export function createHostGatesBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(FLOAT64_OFFSET + 8 * SLOTS);
}

function hashHost(host: string): number {
  // FNV-1a, never 0 (0 marks a slot never used).
  let h = 0x811c9dc5;
  for (let i = 0; i < host.length; i++) h = Math.imul(h ^ host.charCodeAt(i), 0x01000193);
  return h === 0 ? 1 : h;
}

export class SharedHostGates implements HostGates {
  private readonly ints: Int32Array;
  /** Start time of the last request per slot. */
  private readonly lastStart: Float64Array;
  private readonly listeners = new Set<() => void>();
  private readonly channel = new BroadcastChannel(CHANNEL);

  constructor(
    buffer: SharedArrayBuffer,
    private readonly now: () => number = Date.now,
  ) {
    this.ints = new Int32Array(buffer, 0, 1 + SLOTS * FIELDS);
    this.lastStart = new Float64Array(buffer, FLOAT64_OFFSET, SLOTS);
    this.channel.onmessage = () => this.notify();
    // The channel must not keep a finished worker alive.
    this.channel.unref();
  }

  tryAcquire(host: string, limits: GateLimits): (() => void) | number {
    const hash = hashHost(host);
    const slot = (hash >>> 0) % SLOTS;
    const at = 1 + slot * FIELDS;
    const i = this.ints;
    this.lock();
    try {
      const t = this.now();
      const idle = i[at + 1] === 0 && t - this.lastStart[slot]! >= i[at + 3]!;
      if (idle) {
        // Nothing of the slot's last host is pending: it starts afresh with these limits.
        i[at] = hash;
        i[at + 2] = limits.maxConnections;
        i[at + 3] = limits.delayMs;
        this.lastStart[slot] = -Infinity;
      } else {
        i[at + 2] = Math.min(i[at + 2]!, limits.maxConnections);
        i[at + 3] = Math.max(i[at + 3]!, limits.delayMs);
      }
      if (i[at + 1]! >= i[at + 2]!) return Infinity;
      const readyAt = this.lastStart[slot]! + i[at + 3]!;
      if (t < readyAt) return readyAt - t;
      i[at + 1]!++;
      this.lastStart[slot] = t;
    } finally {
      this.unlock();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.lock();
      i[at + 1]!--;
      this.unlock();
      this.channel.postMessage(0);
      queueMicrotask(() => this.notify());
    };
  }

  relax(host: string, limits: GateLimits): void {
    const hash = hashHost(host);
    const at = 1 + ((hash >>> 0) % SLOTS) * FIELDS;
    const i = this.ints;
    this.lock();
    try {
      // Only the slot's own host: another host hashed to it keeps its limits.
      if (i[at] !== hash) return;
      i[at + 2] = limits.maxConnections;
      i[at + 3] = limits.delayMs;
    } finally {
      this.unlock();
    }
    this.notify();
  }

  onRelease(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.channel.close();
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }

  private lock(): void {
    while (Atomics.compareExchange(this.ints, LOCK, 0, 1) !== 0) {
      // Held for a handful of instructions by another thread: wait briefly for its release.
      Atomics.wait(this.ints, LOCK, 1, 1);
    }
  }

  private unlock(): void {
    Atomics.store(this.ints, LOCK, 0);
    Atomics.notify(this.ints, LOCK, 1);
  }
}
