import type { HarvestApi } from '../../shared/contract.js';

export interface RoundTrip {
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Times `samples` sequential app.ping calls: the UI's command round trip to the host. */
export async function measureRoundTrip(api: Pick<HarvestApi, 'app.ping'>, samples: number, now: () => number = () => performance.now()): Promise<RoundTrip> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const sent = now();
    const reply = await api['app.ping']({ sentAtMs: sent });
    if (!reply.ok) throw new Error(reply.error.message);
    times.push(now() - sent);
  }
  times.sort((a, b) => a - b);
  return { samples, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}
