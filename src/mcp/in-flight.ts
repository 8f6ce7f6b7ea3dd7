/** Keeps count of tool calls still running, so a shutdown can let them finish instead of cutting a write short. */

export interface InFlight {
  /** Runs `fn`, counted until it settles. */
  track<T>(fn: () => Promise<T>): Promise<T>;
  readonly size: number;
  /** Resolves true once nothing is running, or false when `timeoutMs` passes first. */
  settled(timeoutMs: number): Promise<boolean>;
}

export function createInFlight(): InFlight {
  const running = new Set<Promise<unknown>>();
  return {
    async track(fn) {
      const call = fn();
      running.add(call);
      try {
        return await call;
      } finally {
        running.delete(call);
      }
    },
    get size() {
      return running.size;
    },
    async settled(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (running.size > 0) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
        });
        await Promise.race([Promise.allSettled([...running]), timeout]);
        clearTimeout(timer);
      }
      return true;
    },
  };
}
