import type { ApiError, ExecuteResult, LockedQuote, QuoteRequest, Route } from '../_lib/api';
import { friendlyFieldMessage, friendlyMessage } from '../_lib/friendly';

/** The swap page as one state machine: form → quoting → routes → locking → locked → executing → executed. */

export interface FormValues {
  srcChain: string;
  srcAddress: string;
  dstChain: string;
  dstAddress: string;
  amount: string;
  slippage: string;
  depositor: string;
  recipient: string;
}

export const EMPTY_FORM: FormValues = {
  srcChain: '',
  srcAddress: '',
  dstChain: '',
  dstAddress: '',
  amount: '',
  slippage: '1',
  depositor: '',
  recipient: '',
};

/** Control id per request field, so API errors land next to the control they are about. */
export const FIELD_IDS: Record<string, string> = {
  srcChain: 'src-chain',
  srcAddress: 'src-asset',
  amount: 'amount',
  depositor: 'src-wallet',
  dstChain: 'dst-chain',
  dstAddress: 'dst-asset',
  recipient: 'dst-wallet',
  slippage: 'slippage',
};
export const FIELD_ORDER = Object.keys(FIELD_IDS);

export interface Quote {
  routes: Route[];
  request: QuoteRequest;
  /** The form's `pairKey` when the routes were asked for. */
  key: string;
}

interface Locked {
  quote: Quote;
  lock: LockedQuote;
  /** Client clock time when the lock runs out. */
  deadline: number;
  /** The Idempotency-Key this lock's execute sends, kept across a reload (saved-lock.ts). */
  executeKey: string;
}

/**
 * A locked quote kept in the tab's session storage, so a reload (a phone switching to its wallet app
 * and back) brings the lock back instead of losing it. `executeKey` is the Idempotency-Key the page's
 * execute sends: pressing Execute again after a reload mid-execute replays the first answer (the same
 * swap), never a second swap or a 409 for a lock the first press used.
 */
export interface SavedLock {
  form: FormValues;
  quote: Quote;
  lock: LockedQuote;
  /** Client clock time when the lock runs out (the page's countdown). */
  deadline: number;
  executeKey: string;
}

export type Stage =
  | { step: 'form' }
  | { step: 'quoting' }
  | { step: 'quote-failed'; error: ApiError }
  | { step: 'routes'; quote: Quote; lockError?: ApiError }
  | { step: 'locking'; quote: Quote; routeId: string }
  | ({ step: 'locked'; executeError?: ApiError } & Locked)
  | ({ step: 'executing' } & Locked)
  | { step: 'executed'; quote: Quote; result: ExecuteResult };

export interface SwapState {
  form: FormValues;
  fieldErrors: Record<string, string>;
  stage: Stage;
  /** What a screen reader hears about the last change. */
  announcement: string;
}

export type SwapAction =
  | { type: 'edit'; field: keyof FormValues; value: string }
  | { type: 'flip' }
  | { type: 'default-asset'; side: 'src' | 'dst'; address: string }
  | { type: 'field-errors'; errors: Record<string, string>; stage?: 'form' | 'routes' }
  | { type: 'quote' }
  | { type: 'quoted'; quote: Quote }
  | { type: 'quote-failed'; error: ApiError }
  | { type: 'lock'; routeId: string; providerName: string }
  | { type: 'locked'; lock: LockedQuote; ttlMs: number; deadline: number; executeKey: string }
  | { type: 'restore-lock'; saved: SavedLock; now: number }
  | { type: 'lock-failed'; error: ApiError }
  | { type: 'execute' }
  | { type: 'executed'; result: ExecuteResult }
  | { type: 'execute-failed'; error: ApiError }
  | { type: 'back-to-routes' }
  | { type: 'lock-expired' }
  | { type: 'restart' };

export const initialSwapState: SwapState = {
  form: EMPTY_FORM,
  fieldErrors: {},
  stage: { step: 'form' },
  announcement: '',
};

/**
 * The form takes a percentage; the API takes basis points. A value that is not a percentage with at
 * most two decimals is sent as typed, so the API refuses it (INVALID_SLIPPAGE) rather than the page guessing.
 */
export function slippageValue(raw: string): number | string | undefined {
  const text = raw.trim().replace(/%$/, '').trim();
  if (!text) return undefined;
  const bps = Number(text) * 100;
  return /^\d+(\.\d{1,2})?$/.test(text) && Number.isFinite(bps) ? Math.round(bps) : raw.trim();
}

export function quoteRequest(form: FormValues): QuoteRequest {
  const slippage = slippageValue(form.slippage);
  const depositor = form.depositor.trim();
  const recipient = form.recipient.trim();
  return {
    srcChain: form.srcChain,
    srcAddress: form.srcAddress,
    dstChain: form.dstChain,
    dstAddress: form.dstAddress,
    amount: form.amount.trim(),
    ...(slippage !== undefined ? { slippage } : {}),
    ...(depositor ? { depositor } : {}),
    ...(recipient ? { recipient } : {}),
  };
}

/** What the routes depend on; wallets may be filled in after the quote without invalidating it. */
export const pairKey = (f: FormValues) =>
  [f.srcChain, f.srcAddress, f.dstChain, f.dstAddress, f.amount.trim(), f.slippage.trim()].join('|');

export function missingSelections(form: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.srcChain) errors.srcChain = 'Choose the chain you send from.';
  else if (!form.srcAddress) errors.srcAddress = 'Choose the asset you send.';
  if (!form.dstChain) errors.dstChain = 'Choose the chain you receive on.';
  else if (!form.dstAddress) errors.dstAddress = 'Choose the asset you receive.';
  return errors;
}

export function missingWallets(form: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.depositor.trim()) errors.depositor = 'Enter the wallet you send from; locking a route needs it.';
  if (!form.recipient.trim()) errors.recipient = 'Enter the wallet that receives the swap; locking a route needs it.';
  return errors;
}

/** The problems of an API error that belong to a form field, by field; empty when none does. */
export function formFieldErrors(error: ApiError): Record<string, string> {
  const messages = error.fieldMessages((problem) => friendlyFieldMessage(problem.field, problem.code, problem.message));
  return Object.fromEntries(Object.entries(messages).filter(([field]) => field in FIELD_IDS));
}

/** The quote the stage works from, if it has one. */
export const quoteOf = (stage: Stage): Quote | null => ('quote' in stage ? stage.quote : null);

/** Editing a field clears its message, and a chain's asset along with the chain. */
function edit(state: SwapState, field: keyof FormValues, value: string): SwapState {
  const form = { ...state.form, [field]: value };
  if (field === 'srcChain' && value !== state.form.srcChain) form.srcAddress = '';
  if (field === 'dstChain' && value !== state.form.dstChain) form.dstAddress = '';
  const cleared: string[] = [field, field === 'srcChain' ? 'srcAddress' : field === 'dstChain' ? 'dstAddress' : field];
  const fieldErrors = cleared.some((name) => name in state.fieldErrors)
    ? Object.fromEntries(Object.entries(state.fieldErrors).filter(([name]) => !cleared.includes(name)))
    : state.fieldErrors;
  return { ...state, form, fieldErrors };
}

/** A lock holds the terms it was made with: changing the form gives it up and goes back to the (now stale) routes. */
function releaseLock(state: SwapState, changed: boolean): SwapState {
  const { stage } = state;
  if (!changed || stage.step !== 'locked') return state;
  return {
    ...state,
    stage: { step: 'routes', quote: stage.quote },
    announcement: 'You changed the swap, so the locked quote no longer applies. Get new routes.',
  };
}

const routesFound = (count: number) =>
  count ? `${count} route${count > 1 ? 's' : ''} found, best first` : 'No route for this pair right now';

export function swapReducer(state: SwapState, action: SwapAction): SwapState {
  const { stage } = state;
  switch (action.type) {
    case 'edit':
      return releaseLock(edit(state, action.field, action.value), state.form[action.field] !== action.value);
    case 'flip': {
      const f = state.form;
      const form = {
        ...f,
        srcChain: f.dstChain,
        srcAddress: f.dstAddress,
        dstChain: f.srcChain,
        dstAddress: f.srcAddress,
        depositor: f.recipient,
        recipient: f.depositor,
      };
      return releaseLock({ ...state, form, fieldErrors: {} }, true);
    }
    case 'default-asset': {
      const key = action.side === 'src' ? 'srcAddress' : 'dstAddress';
      return state.form[key] ? state : { ...state, form: { ...state.form, [key]: action.address } };
    }
    case 'field-errors': {
      // A lock refused over a field goes back to the routes it was chosen from.
      const back =
        action.stage === 'routes' && stage.step === 'locking' ? { step: 'routes' as const, quote: stage.quote } : null;
      const quoting = action.stage === 'form' && stage.step === 'quoting' ? { step: 'form' as const } : null;
      return { ...state, fieldErrors: action.errors, stage: back ?? quoting ?? stage };
    }
    case 'quote':
      return { ...state, fieldErrors: {}, stage: { step: 'quoting' }, announcement: 'Finding routes…' };
    case 'quoted':
      if (stage.step !== 'quoting') return state;
      return {
        ...state,
        stage: { step: 'routes', quote: action.quote },
        announcement: routesFound(action.quote.routes.length),
      };
    case 'quote-failed':
      if (stage.step !== 'quoting') return state;
      return {
        ...state,
        stage: { step: 'quote-failed', error: action.error },
        announcement: `Could not get routes: ${friendlyMessage(action.error)}`,
      };
    case 'lock':
      if (stage.step !== 'routes') return state;
      return {
        ...state,
        fieldErrors: {},
        stage: { step: 'locking', quote: stage.quote, routeId: action.routeId },
        announcement: `Locking the ${action.providerName} route…`,
      };
    case 'locked':
      if (stage.step !== 'locking') return state;
      return {
        ...state,
        stage: {
          step: 'locked',
          quote: stage.quote,
          lock: action.lock,
          deadline: action.deadline,
          executeKey: action.executeKey,
        },
        announcement: `Quote locked for ${Math.round(action.ttlMs / 1000)} seconds`,
      };
    case 'restore-lock': {
      // Only onto a page nobody has started on since the reload.
      if (stage.step !== 'form') return state;
      const { form, quote, lock, deadline, executeKey } = action.saved;
      return {
        ...state,
        form,
        stage: { step: 'locked', quote, lock, deadline, executeKey },
        announcement: `Your locked quote is back: ${Math.max(0, Math.round((deadline - action.now) / 1000))} seconds left to execute`,
      };
    }
    case 'lock-failed':
      if (stage.step !== 'locking') return state;
      return {
        ...state,
        stage: { step: 'routes', quote: stage.quote, lockError: action.error },
        announcement: `Could not lock the route: ${friendlyMessage(action.error)}`,
      };
    case 'execute':
      if (stage.step !== 'locked') return state;
      return {
        ...state,
        stage: {
          step: 'executing',
          quote: stage.quote,
          lock: stage.lock,
          deadline: stage.deadline,
          executeKey: stage.executeKey,
        },
        announcement: 'Executing the swap…',
      };
    case 'executed':
      if (stage.step !== 'executing') return state;
      return {
        ...state,
        stage: { step: 'executed', quote: stage.quote, result: action.result },
        announcement: 'Swap recorded. Follow the next steps.',
      };
    case 'execute-failed':
      if (stage.step !== 'executing') return state;
      return {
        ...state,
        stage: { ...stage, step: 'locked', executeError: action.error },
        announcement:
          action.error.code === 'QUOTE_EXPIRED'
            ? 'Lock expired — get a new quote'
            : `Execution failed: ${friendlyMessage(action.error)}`,
      };
    case 'back-to-routes':
      return stage.step === 'locked' ? { ...state, stage: { step: 'routes', quote: stage.quote } } : state;
    case 'lock-expired':
      return { ...state, announcement: 'Lock expired — get a new quote' };
    case 'restart':
      return { ...state, stage: { step: 'form' } };
  }
}
