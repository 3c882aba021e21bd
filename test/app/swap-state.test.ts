import { describe, expect, it } from 'vitest';
import { ApiError, type ExecuteResult, type LockedQuote, type Route } from '../../app/(public)/_lib/api';
import {
  initialSwapState,
  type Quote,
  type SwapAction,
  type SwapState,
  swapReducer,
} from '../../app/(public)/_swap/swap-state';

const run = (actions: SwapAction[], from: SwapState = initialSwapState) => actions.reduce(swapReducer, from);

const quote: Quote = {
  routes: [{ provider: 'RELAY', routeId: 'r1' } as Route],
  request: { srcChain: 'ethereum', srcAddress: 'native', dstChain: 'bitcoin', dstAddress: 'native', amount: '1' },
  key: 'pair',
};
const lock = { lockId: 'lk_1', provider: 'RELAY', ttlMs: 30_000 } as LockedQuote;
const result = { provider: 'RELAY' } as ExecuteResult;
const failure = (code: string, message = 'nope') => new ApiError(400, code, message);

describe('swap page state', () => {
  it('walks form → quoting → routes → locking → locked → executing → executed, saying each step', () => {
    const steps: [SwapAction, string, string][] = [
      [{ type: 'quote' }, 'quoting', 'Finding routes…'],
      [{ type: 'quoted', quote }, 'routes', '1 route found, best first'],
      [{ type: 'lock', routeId: 'r1', providerName: 'Relay' }, 'locking', 'Locking the Relay route…'],
      [{ type: 'locked', lock, ttlMs: 30_000, deadline: 1 }, 'locked', 'Quote locked for 30 seconds'],
      [{ type: 'execute' }, 'executing', 'Executing the swap…'],
      [{ type: 'executed', result }, 'executed', 'Swap recorded. Follow the next steps.'],
    ];
    let state = initialSwapState;
    for (const [action, step, announcement] of steps) {
      state = swapReducer(state, action);
      expect([state.stage.step, state.announcement]).toEqual([step, announcement]);
    }
    expect(state.stage).toMatchObject({ step: 'executed', quote, result });
  });

  it('drops a quote answer that arrives after a restart', () => {
    const state = run([{ type: 'quote' }, { type: 'restart' }, { type: 'quoted', quote }]);
    expect(state.stage).toEqual({ step: 'form' });
  });

  it('keeps the routes when a lock fails, with the error to show next to them', () => {
    const error = failure('PROVIDER_UNAVAILABLE', 'Relay is down');
    const state = run([
      { type: 'quote' },
      { type: 'quoted', quote },
      { type: 'lock', routeId: 'r1', providerName: 'Relay' },
      { type: 'lock-failed', error },
    ]);
    expect(state.stage).toEqual({ step: 'routes', quote, lockError: error });
    expect(state.announcement).toBe('Could not lock the route: Relay is down');
  });

  it('puts field problems next to the fields and returns to the stage they came from', () => {
    const afterQuote = run([{ type: 'quote' }, { type: 'field-errors', errors: { amount: 'bad' }, stage: 'form' }]);
    expect(afterQuote.stage).toEqual({ step: 'form' });
    expect(afterQuote.fieldErrors).toEqual({ amount: 'bad' });

    const afterLock = run([
      { type: 'quote' },
      { type: 'quoted', quote },
      { type: 'lock', routeId: 'r1', providerName: 'Relay' },
      { type: 'field-errors', errors: { recipient: 'bad' }, stage: 'routes' },
    ]);
    expect(afterLock.stage).toEqual({ step: 'routes', quote });
  });

  it('stays on the lock after a failed execute, and says when the lock has expired', () => {
    const locked = run([
      { type: 'quote' },
      { type: 'quoted', quote },
      { type: 'lock', routeId: 'r1', providerName: 'Relay' },
      { type: 'locked', lock, ttlMs: 30_000, deadline: 1 },
    ]);
    const expired = run([{ type: 'execute' }, { type: 'execute-failed', error: failure('QUOTE_EXPIRED') }], locked);
    expect(expired.stage).toMatchObject({ step: 'locked', executeError: { code: 'QUOTE_EXPIRED' } });
    expect(expired.announcement).toBe('Lock expired — get a new quote');

    const failed = run(
      [{ type: 'execute' }, { type: 'execute-failed', error: failure('BAD_GATEWAY', 'down') }],
      locked,
    );
    expect(failed.announcement).toBe('Execution failed: down');
    expect(run([{ type: 'back-to-routes' }], failed).stage).toEqual({ step: 'routes', quote });
  });

  it('clears a field’s message when it is edited, and a chain’s asset with the chain', () => {
    const start: SwapState = {
      ...initialSwapState,
      form: { ...initialSwapState.form, srcChain: 'ethereum', srcAddress: 'native' },
      fieldErrors: { srcAddress: 'Choose the asset you send.', amount: 'bad' },
    };
    const state = run([{ type: 'edit', field: 'srcChain', value: 'bitcoin' }], start);
    expect(state.form).toMatchObject({ srcChain: 'bitcoin', srcAddress: '' });
    expect(state.fieldErrors).toEqual({ amount: 'bad' });
    expect(run([{ type: 'default-asset', side: 'src', address: 'native' }], state).form.srcAddress).toBe('native');
    expect(run([{ type: 'default-asset', side: 'src', address: 'other' }], start).form.srcAddress).toBe('native');
  });

  it('flips source and destination, wallets included', () => {
    const start: SwapState = {
      ...initialSwapState,
      form: { ...initialSwapState.form, srcChain: 'a', dstChain: 'b', depositor: 'x', recipient: 'y' },
      fieldErrors: { amount: 'bad' },
    };
    const state = run([{ type: 'flip' }], start);
    expect(state.form).toMatchObject({ srcChain: 'b', dstChain: 'a', depositor: 'y', recipient: 'x' });
    expect(state.fieldErrors).toEqual({});
  });
});
