/**
 * SIGTERM and SIGINT, listened for from the first moment of a long-running command: a signal
 * that arrives while it is still starting (opening the database, loading modules) is held
 * until the command has started and can stop cleanly, instead of killing it half-started.
 * A second signal before then ends the process at once (a start that hangs stays stoppable).
 */
export interface StopSignal {
  /** Runs `stop` once, when the first signal arrives (at once if one already has). */
  handle(stop: (signal: string) => Promise<void> | void): void;
  readonly received: string | null;
}

export function onStopSignal(): StopSignal {
  let received: string | null = null;
  let stop: ((signal: string) => Promise<void> | void) | null = null;
  let stopping = false;
  const fire = () => {
    if (stopping || !received || !stop) return;
    stopping = true;
    void stop(received);
  };
  const onSignal = (signal: string) => {
    if (received && !stop) process.exit(1);
    received ??= signal;
    fire();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    handle(fn) {
      stop = fn;
      fire();
    },
    get received() {
      return received;
    },
  };
}
