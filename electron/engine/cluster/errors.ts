/** The database holds no harvest, one of another version, or one already (init). */
export class ClusterSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterSetupError';
  }
}

/** A worker can't start or go on: its name is taken, the database is unreachable, it was declared dead. */
export class ClusterWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterWorkerError';
  }
}
