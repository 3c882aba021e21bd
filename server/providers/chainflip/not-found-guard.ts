export interface NotFoundGuardOptions {
  windowMs?: number;
  /** 404s allowed in the window before we stop asking (the backend bans an IP after 10). */
  budget?: number;
  now?: () => number;
}

/**
 * Keeps this process under the swap backend's not-found limiter (10 not-founds in 60 s blocks the
 * IP for 600 s): counts 404s in a sliding window and says when to stop asking.
 */
export function createNotFoundGuard({ windowMs = 60_000, budget = 8, now = Date.now }: NotFoundGuardOptions = {}) {
  let hits: number[] = [];
  const prune = () => {
    const cutoff = now() - windowMs;
    hits = hits.filter((at) => at > cutoff);
  };
  return {
    exhausted(): boolean {
      prune();
      return hits.length >= budget;
    },
    record(): void {
      prune();
      hits.push(now());
    },
  };
}

export type NotFoundGuard = ReturnType<typeof createNotFoundGuard>;
