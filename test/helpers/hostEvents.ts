import type { HostEvent } from '../../shared/contract.js';

/** Records a host's events and waits for the first that matches. */
export class EventLog {
  readonly events: HostEvent[] = [];
  private waiters: { match: (e: HostEvent) => boolean; resolve: (e: HostEvent) => void }[] = [];

  readonly listener = (e: HostEvent): void => {
    this.events.push(e);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(e)) return true;
      w.resolve(e);
      return false;
    });
  };

  next(match: (e: HostEvent) => boolean, timeoutMs = 30_000): Promise<HostEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a host event')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  jobStatus(id: string, status: string): Promise<HostEvent> {
    return this.next((e) => e.type === 'job' && e.job.id === id && e.job.status === status);
  }
}
