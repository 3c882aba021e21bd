import { describe, expect, it } from 'vitest';
import { ApiError, type ExecuteResult, type LockedQuote, type Route } from '../../app/(public)/_lib/api';
import { friendlyFieldMessage, friendlyMessage } from '../../app/(public)/_lib/friendly';
import {
  formFieldErrors,
  initialSwapState,
  type Quote,
  quoteRequest,
  type SwapAction,
  type SwapState,
  slippageValue,
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
      [
        { type: 'locked', lock, ttlMs: 30_000, deadline: 1, executeKey: 'key-1' },
        'locked',
        'Quote locked for 30 seconds',
      ],
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
    expect(state.announcement).toBe(
      'Could not lock the route: This provider is not answering right now. Choose another route, or try again in a minute.',
    );
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
      { type: 'locked', lock, ttlMs: 30_000, deadline: 1, executeKey: 'key-1' },
    ]);
    const expired = run([{ type: 'execute' }, { type: 'execute-failed', error: failure('QUOTE_EXPIRED') }], locked);
    expect(expired.stage).toMatchObject({ step: 'locked', executeError: { code: 'QUOTE_EXPIRED' } });
    expect(expired.announcement).toBe('Lock expired — get a new quote');

    const failed = run(
      [{ type: 'execute' }, { type: 'execute-failed', error: failure('BAD_GATEWAY', 'down') }],
      locked,
    );
    expect(failed.announcement).toBe('Execution failed: Something went wrong on our side. Try again in a moment.');
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

  it('gives up a lock when the form changes, back to the routes it came from', () => {
    const locked = run([
      { type: 'quote' },
      { type: 'quoted', quote },
      { type: 'lock', routeId: 'r1', providerName: 'Relay' },
      { type: 'locked', lock, ttlMs: 30_000, deadline: 1, executeKey: 'key-1' },
    ]);
    expect(locked.stage.step).toBe('locked');
    const edited = run([{ type: 'edit', field: 'amount', value: '2' }], locked);
    expect(edited.stage).toEqual({ step: 'routes', quote });
    expect(edited.announcement).toMatch(/locked quote no longer applies/);
    expect(run([{ type: 'flip' }], locked).stage.step).toBe('routes');
    expect(run([{ type: 'edit', field: 'amount', value: locked.form.amount }], locked).stage.step).toBe('locked');
  });

  it('takes slippage as a percentage and sends basis points', () => {
    expect(initialSwapState.form.slippage).toBe('1');
    expect(slippageValue('1')).toBe(100);
    expect(slippageValue('0.5')).toBe(50);
    expect(slippageValue('0.25%')).toBe(25);
    expect(slippageValue('')).toBeUndefined();
    // Anything else goes out as typed, for the API to refuse.
    expect(slippageValue('abc')).toBe('abc');
    expect(slippageValue('0.125')).toBe('0.125');
    expect(quoteRequest({ ...initialSwapState.form, slippage: '2' }).slippage).toBe(200);
  });

  it("shows people the API's problems without field names or jargon", () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'several problems', '', [
      {
        code: 'INVALID_ADDRESS',
        field: 'depositor',
        message: 'depositor is not a valid Ethereum address (mixed-case addresses must carry a valid EIP-55 checksum)',
      },
      { code: 'INVALID_SLIPPAGE', field: 'slippage', message: 'slippage must be at most 10000' },
      { code: 'INVALID_AMOUNT', field: 'amount', message: 'amount is too large' },
    ]);
    const messages = formFieldErrors(error);
    expect(Object.keys(messages).sort()).toEqual(['amount', 'depositor', 'slippage']);
    for (const message of Object.values(messages)) {
      expect(message).not.toMatch(/depositor|recipient|EIP-55|checksum|catalog|bps|10000/i);
    }
    expect(messages.depositor).toMatch(/the wallet you send from/);
    expect(
      friendlyFieldMessage('amount', 'INVALID_AMOUNT', 'amount has more decimal places than the asset supports'),
    ).toMatch(/decimal places/);
    const limited = new ApiError(429, 'RATE_LIMITED', 'Too many catalog requests', '', [], 'req_1', 12);
    expect(friendlyMessage(limited)).not.toMatch(/catalog/i);
    expect(limited.retryAfterSeconds).toBe(12);
  });
});
