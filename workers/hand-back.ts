import { type Job, WaitingError } from 'bullmq';

type Processor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/** Why a processor's run ended early: its worker's hand-back time came while its work was still running. */
class HandedBack extends Error {}

/**
 * A processor whose run ends as soon as `handBack` fires (a stopping worker's active jobs have had their
 * time): the job goes back to the head of `wait` under the lock this run holds, so another worker takes it
 * at once, instead of the stopping worker waiting on work stuck on a provider or on a database in failover.
 * A job the stopping worker still takes after that (the job it handed back wakes its own blocking fetch
 * before the fetch is cut) goes back without running. The processor gets `handBack` as its signal.
 *
 * The abandoned work may still finish in this process while it exits. That never acts twice on a swap:
 * each of its writes is a version-checked update or an update under the row's lock that applies only
 * what the row does not already say (server/tracking/apply-status.ts), and the job's own moves (to
 * delayed, completed) need the lock this run gave back, so they fail.
 */
export function handsBackOnShutdown(
  processor: Processor,
  handBack: AbortSignal,
  onHandedBack: (job: Job) => void = () => {},
): Processor {
  return async (job: Job, token?: string) => {
    if (!token) return processor(job, token, handBack);
    let onAbort = () => {};
    const handedBack = new Promise<never>((_, reject) => {
      onAbort = () => reject(new HandedBack());
      if (handBack.aborted) onAbort();
      else handBack.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([handedBack, processor(job, token, handBack)]);
    } catch (error) {
      if (!(error instanceof HandedBack)) throw error;
      // Already moved by the run itself (to delayed, say) as the time came: the lock is gone, and so is the job.
      await job.moveToWait(token).then(
        () => onHandedBack(job),
        () => {},
      );
      throw new WaitingError();
    } finally {
      handBack.removeEventListener('abort', onAbort);
    }
  };
}
