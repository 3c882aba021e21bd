import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/**
 * OpenTelemetry's context manager, letting its AsyncLocalStorage go whenever no kept request is in flight.
 * Once an AsyncLocalStorage has entered a context, Node runs its hook on every async resource (every
 * promise) the process creates until that storage is disabled: at 1 % of requests kept, the lean server
 * served 0.83 of its untraced status throughput, one that never kept a request 1.00 (bench `tracing`).
 * A request we keep holds the storage from its start to its response's close (`hold`); when none is held,
 * the storage is disabled on the next turn of the event loop and what was entered before is stale: a
 * resource that still carries such a context (a timer set during a kept request) reads nothing once the
 * storage is on again. Work a kept request leaves running past its response runs outside its trace. The
 * storage is the same one throughout (each entry carries the release it follows): a fresh one per release
 * would give every long-lived resource a key more at each (a keep-alive connection's, once per window), and
 * the objects made in each window a shape of their own.
 *
 * With `releaseUnheld` (a server, whose kept requests hold it), a context entered while no request is held
 * and with no span being recorded is let go on the next turn as well: a listener bound to a kept request
 * that fires after its span ended, or the span processor's export (run inside a `suppressTracing` context
 * every few seconds), used to turn the storage back on with nothing to let it go until the next kept request
 * ended; in the bench the sampled lean server's storage was on 78 % of the time, and 0.15 % after. Recorded
 * work entered with no request held schedules no release, but the next entry without a recorded span does,
 * and that release ends its context too: the web and api processes start no recorded work outside a request.
 * A worker keeps the storage on: its jobs' contexts are entered with no request to hold them.
 */
export class ReleasingContextManager extends AsyncLocalStorageContextManager {
  private readonly storage = new AsyncLocalStorage<Entered>();
  /** Raised at each release: what was entered before it is stale once the storage is on again. */
  private generation = 0;
  private held = 0;
  private releaseScheduled = false;

  constructor(private readonly options: { releaseUnheld?: boolean } = {}) {
    super();
  }

  override active(): Context {
    const entered = this.storage.getStore();
    return entered !== undefined && entered.generation === this.generation ? entered.context : ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const bound = thisArg == null ? fn : fn.bind(thisArg);
    this.releaseIfUnheld(context);
    return this.storage.run(this.entered(context), bound as never, ...args) as ReturnType<F>;
  }

  override attach(context: Context) {
    const previous = this.active();
    this.releaseIfUnheld(context);
    this.storage.enterWith(this.entered(context));
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.storage.enterWith(this.entered(previous));
      },
    };
  }

  override disable(): this {
    this.storage.disable();
    return this;
  }

  /** A kept request has begun; the returned function ends it (once, however often it is called). */
  hold(): () => void {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      if (this.held === 0) this.releaseSoon();
    };
  }

  private entered(context: Context): Entered {
    return { context, generation: this.generation };
  }

  /** A context with a span being recorded (work of its own, a kept request's) keeps the storage on. */
  private releaseIfUnheld(context: Context) {
    if (this.held === 0 && this.options.releaseUnheld && !trace.getSpan(context)?.isRecording()) this.releaseSoon();
  }

  /** On the next turn of the event loop (after the listeners of the same close, bound to the request's context, have run), unless a request holds it by then. */
  private releaseSoon() {
    if (this.releaseScheduled) return;
    this.releaseScheduled = true;
    setImmediate(() => {
      this.releaseScheduled = false;
      if (this.held === 0) this.letGo();
    });
  }

  private letGo() {
    this.storage.disable();
    this.generation++;
  }
}

/** A context as the storage holds it: with the release it was entered after. */
interface Entered {
  context: Context;
  generation: number;
}
