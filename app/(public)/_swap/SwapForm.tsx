'use client';

import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { Button } from '@/app/_kit/Button';
import { controlClass, Field } from '@/app/_kit/Field';
import { Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { ErrorState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import type { Asset, Chain } from '../_lib/api';
import type { Remote } from '../_lib/useCatalog';
import { ErrorText } from './ErrorText';
import styles from './swap-form.module.css';
import { FIELD_IDS, type FormValues } from './swap-state';
import type { Swap } from './useSwap';

const CHAIN_GROUPS: { type: Chain['type']; label: string }[] = [
  { type: 'EVM', label: 'EVM' },
  { type: 'UTXO', label: 'UTXO' },
  { type: 'COSMOS', label: 'Cosmos' },
  { type: 'OTHER', label: 'Other' },
];

function ChainSelect({ chains, ...rest }: { chains: Chain[] } & ComponentProps<'select'>) {
  return (
    <select className={controlClass()} {...rest}>
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
    <select className={controlClass()} {...rest} disabled={assets?.status !== 'ready' || !list.length}>
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

function slippageHint(slippage: string): string {
  const n = Number(slippage.trim().replace(/%$/, ''));
  return slippage.trim() && Number.isFinite(n) && n > 5
    ? 'That is a wide tolerance: the swap may fill at a much worse price.'
    : 'If the price moves against you by more than this, the swap does not go through. 0.5–1% is typical.';
}

const SIDES = {
  src: {
    legend: 'You send',
    name: 'Source',
    chain: 'srcChain',
    asset: 'srcAddress',
    wallet: 'depositor',
    walletPlaceholder: 'Address you send from',
  },
  dst: {
    legend: 'You receive',
    name: 'Destination',
    chain: 'dstChain',
    asset: 'dstAddress',
    wallet: 'recipient',
    walletPlaceholder: 'Address that receives the swap',
  },
} as const;

type Bind = (field: keyof FormValues) => { value: string; onChange: (event: { target: { value: string } }) => void };

/** One side of the swap: chain, asset and wallet (and, for what is sent, the amount). */
function SideFields({
  side,
  swap,
  chains,
  bind,
  children,
}: {
  side: keyof typeof SIDES;
  swap: Swap;
  chains: Remote<Chain[]>;
  bind: Bind;
  children?: ReactNode;
}) {
  const fields = SIDES[side];
  const errors = swap.state.fieldErrors;
  const catalogReady = chains.status === 'ready';
  return (
    <fieldset className={styles.fieldset}>
      <legend className={`${text.eyebrow} ${styles.legend}`}>{fields.legend}</legend>
      <div className={styles.pair}>
        <Field id={FIELD_IDS[fields.chain]} label={`${fields.name} chain`} error={errors[fields.chain]}>
          <ChainSelect chains={catalogReady ? chains.data : []} disabled={!catalogReady} {...bind(fields.chain)} />
        </Field>
        <Field id={FIELD_IDS[fields.asset]} label={`${fields.name} asset`} error={errors[fields.asset]}>
          <AssetSelect
            assets={swap.assets[side]}
            chainChosen={Boolean(swap.state.form[fields.chain])}
            {...bind(fields.asset)}
          />
        </Field>
      </div>
      {children}
      <Field id={FIELD_IDS[fields.wallet]} label={`${fields.name} wallet`} error={errors[fields.wallet]}>
        <input
          className={controlClass({ mono: true })}
          autoComplete="off"
          spellCheck={false}
          placeholder={fields.walletPlaceholder}
          {...bind(fields.wallet)}
        />
      </Field>
    </fieldset>
  );
}

/** What to swap: chains, assets, amount, wallets and slippage, with each field's problem next to it. */
export function SwapForm({
  swap,
  chains,
  onReloadChains,
}: {
  swap: Swap;
  chains: Remote<Chain[]>;
  onReloadChains: () => void;
}) {
  const { form, fieldErrors: errors, stage } = swap.state;
  const catalogReady = chains.status === 'ready';
  const busy = stage.step === 'quoting';
  const errorCount = Object.keys(errors).length;
  const bind: Bind = (field) => ({
    value: form[field],
    onChange: (event) => swap.edit(field, event.target.value),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void swap.getRoutes();
  };

  return (
    <Panel
      title="Your swap"
      headingId="swap-form-title"
      lead="Wallet addresses are optional for quotes and required to lock a route."
    >
      {chains.status === 'error' ? (
        <ErrorState
          title="Could not load chains."
          message={<ErrorText error={chains.error} />}
          onRetry={onReloadChains}
        />
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate aria-busy={!catalogReady}>
          <SideFields side="src" swap={swap} chains={chains} bind={bind}>
            <Field id={FIELD_IDS.amount} label="Amount" error={errors.amount}>
              <input
                className={controlClass()}
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.0"
                {...bind('amount')}
              />
            </Field>
          </SideFields>

          <div className={styles.flipRow}>
            <button
              type="button"
              className={styles.flip}
              onClick={swap.flip}
              aria-label="Swap source and destination"
              title="Swap source and destination"
            >
              <span aria-hidden="true">⇅</span>
            </button>
          </div>

          <SideFields side="dst" swap={swap} chains={chains} bind={bind} />

          <Field
            id={FIELD_IDS.slippage}
            label="Slippage tolerance (%)"
            error={errors.slippage}
            hint={slippageHint(form.slippage)}
          >
            <input className={controlClass()} inputMode="decimal" autoComplete="off" {...bind('slippage')} />
          </Field>

          {[swap.assets.src, swap.assets.dst].some((a) => a?.status === 'error') && (
            <Notice tone="error" role="alert" title="Could not load assets.">
              <Button size="small" onClick={swap.assets.retry}>
                Retry
              </Button>
            </Notice>
          )}

          {errorCount > 0 && (
            <Notice
              tone="error"
              role="alert"
              title={`${errorCount === 1 ? 'One field needs' : `${errorCount} fields need`} attention.`}
            >
              See the messages above.
            </Notice>
          )}

          <Button
            type="submit"
            variant="primary"
            size="large"
            block
            disabled={busy || !catalogReady}
            busy={busy || !catalogReady}
          >
            {!catalogReady ? 'Loading chains…' : busy ? 'Finding routes…' : 'Get routes'}
          </Button>
        </form>
      )}
    </Panel>
  );
}
