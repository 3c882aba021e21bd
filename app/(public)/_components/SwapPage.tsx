'use client';

import {
  type ComponentProps,
  type FormEvent,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  type ApiError,
  type Asset,
  api,
  asApiError,
  type Chain,
  type ExecuteResult,
  type LockedQuote,
  type LockRequest,
  type QuoteRequest,
  type Route,
} from '../_lib/api';
import { formatBps } from '../_lib/format';
import { rememberReferral } from '../_lib/referral';
import { Field } from './Field';
import { LockPanel } from './LockPanel';
import { NextSteps } from './NextSteps';
import { RouteList } from './RouteList';
import styles from './ui.module.css';

type Remote<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'error'; error: ApiError };

interface FormValues {
  srcChain: string;
  srcAddress: string;
  dstChain: string;
  dstAddress: string;
  amount: string;
  slippage: string;
  depositor: string;
  recipient: string;
}

const EMPTY_FORM: FormValues = {
  srcChain: '',
  srcAddress: '',
  dstChain: '',
  dstAddress: '',
  amount: '',
  slippage: '100',
  depositor: '',
  recipient: '',
};

/** Control id per request field, so API errors land next to the control they are about. */
const FIELD_IDS: Record<string, string> = {
  srcChain: 'src-chain',
  srcAddress: 'src-asset',
  amount: 'amount',
  depositor: 'src-wallet',
  dstChain: 'dst-chain',
  dstAddress: 'dst-asset',
  recipient: 'dst-wallet',
  slippage: 'slippage',
};
const FIELD_ORDER = Object.keys(FIELD_IDS);

const CHAIN_GROUPS: { type: Chain['type']; label: string }[] = [
  { type: 'EVM', label: 'EVM' },
  { type: 'UTXO', label: 'UTXO' },
  { type: 'COSMOS', label: 'Cosmos' },
  { type: 'OTHER', label: 'Other' },
];

interface QuoteState {
  routes: Route[];
  request: QuoteRequest;
  key: string;
}

type LockState =
  | { status: 'idle' }
  | { status: 'loading'; routeId: string }
  | { status: 'error'; routeId: string; error: ApiError }
  | { status: 'ready'; data: LockedQuote; deadline: number };

/** Sent as typed, so the API reports a malformed value (INVALID_SLIPPAGE) rather than the page guessing. */
function slippageValue(raw: string): number | string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function quoteRequest(form: FormValues): QuoteRequest {
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
const pairKey = (f: FormValues) =>
  [f.srcChain, f.srcAddress, f.dstChain, f.dstAddress, f.amount.trim(), f.slippage.trim()].join('|');

function missingSelections(form: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.srcChain) errors.srcChain = 'Choose the chain you send from.';
  else if (!form.srcAddress) errors.srcAddress = 'Choose the asset you send.';
  if (!form.dstChain) errors.dstChain = 'Choose the chain you receive on.';
  else if (!form.dstAddress) errors.dstAddress = 'Choose the asset you receive.';
  return errors;
}

function ChainSelect({ chains, ...rest }: { chains: Chain[] } & ComponentProps<'select'>) {
  return (
    <select className={styles.control} {...rest}>
      <option value="" disabled>
        Select chain
      </option>
      {CHAIN_GROUPS.map((group) => {
        const members = chains.filter((c) => c.type === group.type);
        return members.length ? (
          <optgroup key={group.type} label={group.label}>
            {members.map((c) => (
              <option key={c.key} value={c.key}>
                {c.name}
              </option>
            ))}
          </optgroup>
        ) : null;
      })}
    </select>
  );
}

function AssetSelect({
  assets,
  chainChosen,
  ...rest
}: { assets: Remote<Asset[]> | undefined; chainChosen: boolean } & ComponentProps<'select'>) {
  const list = assets?.status === 'ready' ? assets.data : [];
  const placeholder = !chainChosen
    ? 'Choose a chain first'
    : assets?.status === 'error'
      ? 'Could not load assets'
      : assets?.status === 'ready'
        ? list.length
          ? 'Select asset'
          : 'No assets on this chain'
        : 'Loading assets…';
  return (
    <select className={styles.control} {...rest} disabled={assets?.status !== 'ready' || !list.length}>
      <option value="" disabled>
        {placeholder}
      </option>
      {list.map((a) => (
        <option key={a.address} value={a.address}>
          {a.symbol} — {a.name}
        </option>
      ))}
    </select>
  );
}

export function SwapPage({ referralFromUrl }: { referralFromUrl: string | null }) {
  const [referral, setReferral] = useState<string | null>(null);
  const [chains, setChains] = useState<Remote<Chain[]>>({ status: 'loading' });
  const [assets, setAssets] = useState<Record<string, Remote<Asset[]>>>({});
  const [providerNames, setProviderNames] = useState<Record<string, string>>({});
  const [form, setForm] = useState<FormValues>(EMPTY_FORM);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [quote, setQuote] = useState<Remote<QuoteState>>({ status: 'idle' });
  const [lock, setLock] = useState<LockState>({ status: 'idle' });
  const [execution, setExecution] = useState<Remote<ExecuteResult>>({ status: 'idle' });
  const [announcement, setAnnouncement] = useState('');
  const quoteSeq = useRef(0);
  const routesHeading = useRef<HTMLHeadingElement>(null);
  const lockHeading = useRef<HTMLHeadingElement>(null);
  const nextHeading = useRef<HTMLHeadingElement>(null);
  const pendingFocus = useRef<(() => HTMLElement | null) | null>(null);
  const focusAfterRender = (target: RefObject<HTMLHeadingElement | null> | null) => {
    pendingFocus.current = target ? () => target.current : null;
  };

  // Focus moves to each new stage (or the first invalid field) once it has rendered, descriptions included,
  // so keyboard and screen-reader users follow along.
  useEffect(() => {
    const element = pendingFocus.current?.();
    pendingFocus.current = null;
    if (!element) return;
    element.scrollIntoView({ block: 'nearest' });
    element.focus({ preventScroll: true });
  });

  useEffect(() => {
    const code = rememberReferral(referralFromUrl);
    if (!code) return;
    // Only a registered, active code earns "Referred by"; anything else attributes nothing anyway.
    const controller = new AbortController();
    api.referral(code, controller.signal).then(
      ({ data }) => setReferral(data.active ? data.code : null),
      () => setReferral(null),
    );
    return () => controller.abort();
  }, [referralFromUrl]);

  const loadChains = useCallback(() => {
    const controller = new AbortController();
    setChains({ status: 'loading' });
    api
      .chains(controller.signal)
      .then(({ data }) => setChains({ status: 'ready', data }))
      .catch((error) => {
        if (!controller.signal.aborted) setChains({ status: 'error', error: asApiError(error) });
      });
    api
      .sources(controller.signal)
      .then(({ data }) => setProviderNames(Object.fromEntries(data.map((s) => [s.key, s.name]))))
      .catch(() => {});
    return () => controller.abort();
  }, []);
  useEffect(() => loadChains(), [loadChains]);

  const requestedAssets = useRef(new Set<string>());
  const loadAssets = useCallback((chain: string, force = false) => {
    if (!chain || (!force && requestedAssets.current.has(chain))) return;
    requestedAssets.current.add(chain);
    setAssets((all) => ({ ...all, [chain]: { status: 'loading' } }));
    api
      .assets(chain)
      .then(({ data }) => setAssets((all) => ({ ...all, [chain]: { status: 'ready', data } })))
      .catch((error) => setAssets((all) => ({ ...all, [chain]: { status: 'error', error: asApiError(error) } })));
  }, []);
  useEffect(() => loadAssets(form.srcChain), [form.srcChain, loadAssets]);
  useEffect(() => loadAssets(form.dstChain), [form.dstChain, loadAssets]);

  // A freshly chosen chain starts on its native asset.
  const srcAssets = assets[form.srcChain];
  const dstAssets = assets[form.dstChain];
  useEffect(() => {
    if (srcAssets?.status !== 'ready' || form.srcAddress) return;
    const native = srcAssets.data.find((a) => a.isNative);
    if (native) setForm((f) => (f.srcAddress ? f : { ...f, srcAddress: native.address }));
  }, [srcAssets, form.srcAddress]);
  useEffect(() => {
    if (dstAssets?.status !== 'ready' || form.dstAddress) return;
    const native = dstAssets.data.find((a) => a.isNative);
    if (native) setForm((f) => (f.dstAddress ? f : { ...f, dstAddress: native.address }));
  }, [dstAssets, form.dstAddress]);

  const providerName = useCallback((key: string) => providerNames[key] ?? key, [providerNames]);

  function update<K extends keyof FormValues>(key: K, value: FormValues[K]) {
    setForm((f) => {
      const next = { ...f, [key]: value };
      if (key === 'srcChain' && value !== f.srcChain) next.srcAddress = '';
      if (key === 'dstChain' && value !== f.dstChain) next.dstAddress = '';
      return next;
    });
    setFieldErrors((errors) => {
      const cleared = [key, key === 'srcChain' ? 'srcAddress' : key === 'dstChain' ? 'dstAddress' : key];
      if (!cleared.some((field) => field in errors)) return errors;
      return Object.fromEntries(Object.entries(errors).filter(([field]) => !cleared.includes(field)));
    });
  }

  function flip() {
    setForm((f) => ({
      ...f,
      srcChain: f.dstChain,
      srcAddress: f.dstAddress,
      dstChain: f.srcChain,
      dstAddress: f.srcAddress,
      depositor: f.recipient,
      recipient: f.depositor,
    }));
    setFieldErrors({});
  }

  function showFieldErrors(errors: Record<string, string>) {
    setFieldErrors(errors);
    const first = FIELD_ORDER.find((field) => errors[field]);
    pendingFocus.current = first ? () => document.getElementById(FIELD_IDS[first] ?? '') : null;
  }

  /** Field-level problems go next to their controls; anything else is the caller's to show. */
  function routeError(error: ApiError): boolean {
    const inForm = Object.fromEntries(Object.entries(error.fieldMessages()).filter(([field]) => field in FIELD_IDS));
    if (!Object.keys(inForm).length) return false;
    showFieldErrors(inForm);
    return true;
  }

  async function getRoutes(values: FormValues = form) {
    const missing = missingSelections(values);
    if (Object.keys(missing).length) {
      showFieldErrors(missing);
      return;
    }
    const seq = ++quoteSeq.current;
    const request = quoteRequest(values);
    setFieldErrors({});
    setLock({ status: 'idle' });
    setExecution({ status: 'idle' });
    setQuote({ status: 'loading' });
    focusAfterRender(null);
    setAnnouncement('Finding routes…');
    try {
      const { data } = await api.quote(request);
      if (seq !== quoteSeq.current) return;
      setQuote({ status: 'ready', data: { routes: data, request, key: pairKey(values) } });
      setAnnouncement(
        data.length
          ? `${data.length} route${data.length > 1 ? 's' : ''} found, best first`
          : 'No route for this pair right now',
      );
      focusAfterRender(routesHeading);
    } catch (caught) {
      if (seq !== quoteSeq.current) return;
      const error = asApiError(caught);
      const shown = routeError(error);
      setQuote(shown ? { status: 'idle' } : { status: 'error', error });
      if (!shown) setAnnouncement(`Could not get routes: ${error.message}`);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void getRoutes();
  }

  async function chooseRoute(route: Route, quoted: QuoteState) {
    const depositor = form.depositor.trim();
    const recipient = form.recipient.trim();
    const missing: Record<string, string> = {};
    if (!depositor) missing.depositor = 'Enter the wallet you send from; locking a route needs it.';
    if (!recipient) missing.recipient = 'Enter the wallet that receives the swap; locking a route needs it.';
    if (Object.keys(missing).length) {
      showFieldErrors(missing);
      return;
    }
    const body: LockRequest = {
      ...quoted.request,
      depositor,
      recipient,
      provider: route.provider,
      routeId: route.routeId,
      ...(referral ? { referralCode: referral } : {}),
    };
    setFieldErrors({});
    setLock({ status: 'loading', routeId: route.routeId });
    setAnnouncement(`Locking the ${providerName(route.provider)} route…`);
    try {
      const { data } = await api.lock(body);
      const ttl = Number.isFinite(data.ttlMs) && data.ttlMs > 0 ? data.ttlMs : Date.parse(data.expiresAt) - Date.now();
      setLock({ status: 'ready', data, deadline: Date.now() + ttl });
      setExecution({ status: 'idle' });
      setAnnouncement(`Quote locked for ${Math.round(ttl / 1000)} seconds`);
      focusAfterRender(lockHeading);
    } catch (caught) {
      const error = asApiError(caught);
      if (routeError(error)) setLock({ status: 'idle' });
      else {
        setLock({ status: 'error', routeId: route.routeId, error });
        setAnnouncement(`Could not lock the route: ${error.message}`);
      }
    }
  }

  async function execute(lockId: string) {
    setExecution({ status: 'loading' });
    setAnnouncement('Executing the swap…');
    try {
      const { data } = await api.execute({ lockId, ...(referral ? { referralCode: referral } : {}) });
      setExecution({ status: 'ready', data });
      setAnnouncement('Swap recorded. Follow the next steps.');
      focusAfterRender(nextHeading);
    } catch (caught) {
      const error = asApiError(caught);
      setExecution({ status: 'error', error });
      setAnnouncement(
        error.code === 'QUOTE_EXPIRED' ? 'Lock expired — get a new quote' : `Execution failed: ${error.message}`,
      );
    }
  }

  const onExpire = useCallback(() => setAnnouncement('Lock expired — get a new quote'), []);

  function restart() {
    quoteSeq.current++;
    setQuote({ status: 'idle' });
    setLock({ status: 'idle' });
    setExecution({ status: 'idle' });
    focusAfterRender(null);
    document.getElementById('src-chain')?.focus();
  }

  const stale = quote.status === 'ready' && quote.data.key !== pairKey(form);
  const slippagePreview = useMemo(() => {
    const n = Number(form.slippage);
    return form.slippage.trim() && Number.isInteger(n) && n >= 0 && n <= 10_000 ? formatBps(n) : null;
  }, [form.slippage]);

  const chainList = chains.status === 'ready' ? chains.data : [];
  const catalogReady = chains.status === 'ready';

  function renderResults() {
    if (execution.status === 'ready') {
      return (
        <NextSteps
          result={execution.data}
          providerName={providerName(execution.data.provider)}
          headingRef={nextHeading}
          onRestart={restart}
        />
      );
    }
    if (lock.status === 'ready') {
      return (
        <LockPanel
          key={lock.data.lockId}
          lock={lock.data}
          deadline={lock.deadline}
          providerName={providerName(lock.data.provider)}
          executing={execution.status === 'loading'}
          error={execution.status === 'error' ? execution.error : null}
          headingRef={lockHeading}
          onExecute={() => execute(lock.data.lockId)}
          onRequote={() => (quote.status === 'ready' ? getRoutes() : restart())}
          onBack={() => {
            setLock({ status: 'idle' });
            setExecution({ status: 'idle' });
            focusAfterRender(routesHeading);
          }}
          onExpire={onExpire}
        />
      );
    }
    return (
      <section className={styles.panel} aria-labelledby="routes-title" aria-busy={quote.status === 'loading'}>
        <h2 id="routes-title" className={styles.panelTitle} ref={routesHeading} tabIndex={-1}>
          Routes
        </h2>
        {quote.status === 'idle' && (
          <div className={styles.empty}>
            <div className={styles.emptyIcon} aria-hidden="true">
              ⇄
            </div>
            <p>Choose what to send and receive, then select “Get routes” to compare providers.</p>
          </div>
        )}
        {quote.status === 'loading' && (
          <div className={styles.stack}>
            <p className={styles.panelSub}>Asking every provider for a price…</p>
            <div className={styles.skeleton} />
            <div className={styles.skeleton} />
          </div>
        )}
        {quote.status === 'error' && (
          <div className={styles.stack}>
            <p className={styles.alert} role="alert">
              <strong>Could not get routes.</strong> {quote.error.message}
            </p>
            <div>
              <button type="button" className={styles.buttonSecondary} onClick={() => getRoutes()}>
                Try again
              </button>
            </div>
          </div>
        )}
        {quote.status === 'ready' && quote.data.routes.length === 0 && (
          <div className={styles.empty}>
            <div className={styles.emptyIcon} aria-hidden="true">
              ∅
            </div>
            <h3>No route for this pair right now</h3>
            <p>Try another amount or asset, or check again in a minute.</p>
          </div>
        )}
        {quote.status === 'ready' && quote.data.routes.length > 0 && (
          <div className={styles.stack}>
            <p className={styles.panelSub}>
              {quote.data.routes.length} route{quote.data.routes.length > 1 ? 's' : ''} for{' '}
              {quote.data.routes[0]?.src.formatted}, best rate first.
            </p>
            {stale && (
              <p className={styles.notice}>
                You changed the swap since these routes were fetched. Select “Get routes” again to refresh them.
              </p>
            )}
            {lock.status === 'error' && (
              <p className={styles.alert} role="alert">
                <strong>Could not lock that route.</strong> {lock.error.message}
              </p>
            )}
            <RouteList
              routes={quote.data.routes}
              providerName={providerName}
              onChoose={(route) => chooseRoute(route, quote.data)}
              lockingRouteId={lock.status === 'loading' ? lock.routeId : null}
              disabled={stale || lock.status === 'loading'}
            />
          </div>
        )}
      </section>
    );
  }

  const busy = quote.status === 'loading';
  const errorCount = Object.keys(fieldErrors).length;
  return (
    <>
      <div className={styles.pageHead}>
        <div>
          <h1 className={styles.title}>Swap across chains</h1>
          <p className={styles.lead}>
            Compare routes from every provider, lock the best price and follow your swap until it lands. No account
            needed.
          </p>
        </div>
        {referral && (
          <p className={styles.pill} data-testid="referral">
            Referred by <strong>{referral}</strong>
          </p>
        )}
      </div>

      <p className={styles.srOnly} aria-live="polite" aria-atomic="true">
        {announcement}
      </p>

      <div className={styles.grid}>
        <section className={styles.panel} aria-labelledby="swap-form-title">
          <h2 id="swap-form-title" className={styles.panelTitle}>
            Your swap
          </h2>
          <p className={styles.panelSub}>Wallet addresses are optional for quotes and required to lock a route.</p>

          {chains.status === 'error' ? (
            <div className={styles.stack}>
              <p className={styles.alert} role="alert">
                <strong>Could not load chains.</strong> {chains.error.message}
              </p>
              <div>
                <button type="button" className={styles.buttonSecondary} onClick={() => loadChains()}>
                  Try again
                </button>
              </div>
            </div>
          ) : (
            <form className={styles.form} onSubmit={submit} noValidate aria-busy={!catalogReady}>
              <fieldset className={styles.fieldset}>
                <legend className={styles.legend}>You send</legend>
                <div className={styles.row}>
                  <Field id="src-chain" label="Source chain" error={fieldErrors.srcChain}>
                    <ChainSelect
                      chains={chainList}
                      value={form.srcChain}
                      disabled={!catalogReady}
                      onChange={(e) => update('srcChain', e.target.value)}
                    />
                  </Field>
                  <Field id="src-asset" label="Source asset" error={fieldErrors.srcAddress}>
                    <AssetSelect
                      assets={srcAssets}
                      chainChosen={Boolean(form.srcChain)}
                      value={form.srcAddress}
                      onChange={(e) => update('srcAddress', e.target.value)}
                    />
                  </Field>
                </div>
                <Field id="amount" label="Amount" error={fieldErrors.amount}>
                  <input
                    className={styles.control}
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="0.0"
                    value={form.amount}
                    onChange={(e) => update('amount', e.target.value)}
                  />
                </Field>
                <Field id="src-wallet" label="Source wallet" error={fieldErrors.depositor}>
                  <input
                    className={`${styles.control} ${styles.mono}`}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="Address you send from"
                    value={form.depositor}
                    onChange={(e) => update('depositor', e.target.value)}
                  />
                </Field>
              </fieldset>

              <div className={styles.flipRow}>
                <button
                  type="button"
                  className={styles.flip}
                  onClick={flip}
                  aria-label="Swap source and destination"
                  title="Swap source and destination"
                >
                  <span aria-hidden="true">⇅</span>
                </button>
              </div>

              <fieldset className={styles.fieldset}>
                <legend className={styles.legend}>You receive</legend>
                <div className={styles.row}>
                  <Field id="dst-chain" label="Destination chain" error={fieldErrors.dstChain}>
                    <ChainSelect
                      chains={chainList}
                      value={form.dstChain}
                      disabled={!catalogReady}
                      onChange={(e) => update('dstChain', e.target.value)}
                    />
                  </Field>
                  <Field id="dst-asset" label="Destination asset" error={fieldErrors.dstAddress}>
                    <AssetSelect
                      assets={dstAssets}
                      chainChosen={Boolean(form.dstChain)}
                      value={form.dstAddress}
                      onChange={(e) => update('dstAddress', e.target.value)}
                    />
                  </Field>
                </div>
                <Field id="dst-wallet" label="Destination wallet" error={fieldErrors.recipient}>
                  <input
                    className={`${styles.control} ${styles.mono}`}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="Address that receives the swap"
                    value={form.recipient}
                    onChange={(e) => update('recipient', e.target.value)}
                  />
                </Field>
              </fieldset>

              <Field
                id="slippage"
                label="Slippage tolerance (bps)"
                error={fieldErrors.slippage}
                hint={
                  slippagePreview ? `${form.slippage.trim()} bps = ${slippagePreview}` : 'Basis points: 100 bps = 1%'
                }
              >
                <input
                  className={styles.control}
                  inputMode="numeric"
                  autoComplete="off"
                  value={form.slippage}
                  onChange={(e) => update('slippage', e.target.value)}
                />
              </Field>

              {[srcAssets, dstAssets].some((a) => a?.status === 'error') && (
                <p className={styles.alert} role="alert">
                  <strong>Could not load assets.</strong>{' '}
                  <button
                    type="button"
                    className={styles.buttonSmall}
                    onClick={() => {
                      if (srcAssets?.status === 'error') loadAssets(form.srcChain, true);
                      if (dstAssets?.status === 'error') loadAssets(form.dstChain, true);
                    }}
                  >
                    Retry
                  </button>
                </p>
              )}

              {errorCount > 0 && (
                <p className={styles.alert} role="alert">
                  <strong>{errorCount === 1 ? 'One field needs' : `${errorCount} fields need`} attention.</strong> See
                  the messages above.
                </p>
              )}

              <button
                type="submit"
                className={`${styles.button} ${styles.block}`}
                disabled={busy || !catalogReady}
                aria-busy={busy || undefined}
              >
                {(busy || !catalogReady) && <span className={styles.spinner} aria-hidden="true" />}
                {!catalogReady ? 'Loading chains…' : busy ? 'Finding routes…' : 'Get routes'}
              </button>
            </form>
          )}
        </section>

        <div>{renderResults()}</div>
      </div>
    </>
  );
}
