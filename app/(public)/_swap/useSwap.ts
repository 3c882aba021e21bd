'use client';

import { type RefObject, useCallback, useEffect, useReducer, useRef } from 'react';
import { api, asApiError, type LockRequest, type Route } from '../_lib/api';
import { newExecuteKey, readSavedLock, writeSavedLock } from './saved-lock';
import { showSwapInAddress } from './swap-address';
import {
  FIELD_IDS,
  FIELD_ORDER,
  type FormValues,
  formFieldErrors,
  initialSwapState,
  missingSelections,
  missingWallets,
  pairKey,
  quoteRequest,
  swapReducer,
} from './swap-state';
import { useChainAssets } from './useChainAssets';

type FocusTarget = RefObject<HTMLElement | null>;

/**
 * The swap page's state and the calls that move it along. Focus follows each new stage (or the
 * first field in error) once it has rendered, descriptions included, so keyboard and screen-reader
 * users follow along.
 */
export function useSwap({
  referral,
  providerName,
}: {
  referral: string | null;
  providerName: (key: string) => string;
}) {
  const [state, dispatch] = useReducer(swapReducer, initialSwapState);
  const assets = useChainAssets(state.form, dispatch);
  const headings = {
    routes: useRef<HTMLHeadingElement>(null),
    lock: useRef<HTMLHeadingElement>(null),
    next: useRef<HTMLHeadingElement>(null),
  };
  // A failure far from the button that asked (above it on a wide screen, below it on a phone) gets the focus.
  const errors = { routes: useRef<HTMLDivElement>(null) };
  const pendingFocus = useRef<(() => HTMLElement | null) | null>(null);
  // Answers to a quote asked before the latest one (or before a restart) are dropped.
  const quoteSeq = useRef(0);

  // A lock this tab held before a reload comes back (after hydration: storage is the browser's alone).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render in the browser
  useEffect(() => {
    const saved = readSavedLock(window.sessionStorage, Date.now());
    if (saved) {
      dispatch({ type: 'restore-lock', saved, now: Date.now() });
      focusAfterRender(headings.lock);
    }
  }, []);

  // While a lock runs (or its execute is on the way) the tab keeps it; any other stage forgets it.
  const { stage, form } = state;
  useEffect(() => {
    const held = stage.step === 'locked' || stage.step === 'executing';
    writeSavedLock(
      window.sessionStorage,
      held
        ? { form, quote: stage.quote, lock: stage.lock, deadline: stage.deadline, executeKey: stage.executeKey }
        : null,
    );
  }, [stage, form]);

  useEffect(() => {
    const element = pendingFocus.current?.();
    pendingFocus.current = null;
    if (!element) return;
    element.scrollIntoView({ block: 'nearest' });
    element.focus({ preventScroll: true });
  });

  const focusAfterRender = (target: FocusTarget | null) => {
    pendingFocus.current = target ? () => target.current : null;
  };

  const showFieldErrors = (errors: Record<string, string>, stage?: 'form' | 'routes') => {
    dispatch({ type: 'field-errors', errors, stage });
    const first = FIELD_ORDER.find((field) => errors[field]);
    pendingFocus.current = first ? () => document.getElementById(FIELD_IDS[first] ?? '') : null;
  };

  async function getRoutes() {
    const form = state.form;
    const missing = missingSelections(form);
    if (Object.keys(missing).length) return showFieldErrors(missing);
    const seq = ++quoteSeq.current;
    const request = quoteRequest(form);
    dispatch({ type: 'quote' });
    focusAfterRender(null);
    try {
      const { data } = await api.quote(request);
      if (seq !== quoteSeq.current) return;
      dispatch({ type: 'quoted', quote: { routes: data, request, key: pairKey(form) } });
      focusAfterRender(headings.routes);
    } catch (caught) {
      if (seq !== quoteSeq.current) return;
      const error = asApiError(caught);
      const inForm = formFieldErrors(error);
      if (Object.keys(inForm).length) showFieldErrors(inForm, 'form');
      else {
        dispatch({ type: 'quote-failed', error });
        focusAfterRender(errors.routes);
      }
    }
  }

  async function chooseRoute(route: Route) {
    const { form, stage } = state;
    if (stage.step !== 'routes') return;
    const missing = missingWallets(form);
    if (Object.keys(missing).length) return showFieldErrors(missing);
    const body: LockRequest = {
      ...stage.quote.request,
      depositor: form.depositor.trim(),
      recipient: form.recipient.trim(),
      provider: route.provider,
      routeId: route.routeId,
      ...(referral ? { referralCode: referral } : {}),
    };
    dispatch({ type: 'lock', routeId: route.routeId, providerName: providerName(route.provider) });
    try {
      const { data } = await api.lock(body);
      const ttlMs =
        Number.isFinite(data.ttlMs) && data.ttlMs > 0 ? data.ttlMs : Date.parse(data.expiresAt) - Date.now();
      dispatch({ type: 'locked', lock: data, ttlMs, deadline: Date.now() + ttlMs, executeKey: newExecuteKey() });
      focusAfterRender(headings.lock);
    } catch (caught) {
      const error = asApiError(caught);
      const inForm = formFieldErrors(error);
      if (Object.keys(inForm).length) showFieldErrors(inForm, 'routes');
      else dispatch({ type: 'lock-failed', error });
    }
  }

  async function execute() {
    if (state.stage.step !== 'locked') return;
    const { lock, executeKey } = state.stage;
    dispatch({ type: 'execute' });
    try {
      const { data } = await api.execute(
        { lockId: lock.lockId, ...(referral ? { referralCode: referral } : {}) },
        executeKey,
      );
      dispatch({ type: 'executed', result: data });
      showSwapInAddress(data.transaction.id);
      focusAfterRender(headings.next);
    } catch (caught) {
      dispatch({ type: 'execute-failed', error: asApiError(caught) });
    }
  }

  function backToRoutes() {
    dispatch({ type: 'back-to-routes' });
    focusAfterRender(headings.routes);
  }

  function restart() {
    quoteSeq.current++;
    dispatch({ type: 'restart' });
    showSwapInAddress(null);
    focusAfterRender(null);
    document.getElementById(FIELD_IDS.srcChain ?? '')?.focus();
  }

  const onLockExpired = useCallback(() => dispatch({ type: 'lock-expired' }), []);

  return {
    state,
    assets,
    headings,
    errors,
    edit: (field: keyof FormValues, value: string) => dispatch({ type: 'edit', field, value }),
    flip: () => dispatch({ type: 'flip' }),
    getRoutes,
    chooseRoute,
    execute,
    backToRoutes,
    restart,
    onLockExpired,
  };
}

export type Swap = ReturnType<typeof useSwap>;
