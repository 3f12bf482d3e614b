import type { BrokerAnswer, PageRequest, RequestBroker } from './types.js';

export interface RecordedRequest {
  url: string;
  type: string;
  /** Answered with a status below 400. */
  ok: boolean;
}

/** Passes each request to another broker and remembers what became of it. */
export class RecordingBroker implements RequestBroker {
  readonly requests: RecordedRequest[] = [];

  constructor(private readonly inner: RequestBroker) {}

  async answer(req: PageRequest, signal: AbortSignal): Promise<BrokerAnswer> {
    const answer = await this.inner.answer(req, signal);
    this.requests.push({ url: req.url, type: req.resourceType, ok: 'response' in answer && answer.response.status < 400 });
    return answer;
  }
}
