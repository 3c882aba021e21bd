import type { FormEvent } from 'react';
import { Button } from '@/app/_kit/Button';
import { controlClass, Field } from '@/app/_kit/Field';
import { Panel } from '@/app/_kit/Panel';
import { PROVIDER_KEYS } from '@/server/providers/keys';
import { TX_STATUSES } from '@/server/transactions/statuses';
import forms from '../forms.module.css';

const FILTERS = ['q', 'status', 'provider', 'chain', 'from', 'to', 'ref', 'stale'] as const;

/** A filter that is off ("Any") unless one of `options` (values, or value–label pairs) is chosen. */
function Choice({
  name,
  label,
  initial,
  options,
}: {
  name: string;
  label: string;
  initial: string;
  options: readonly (string | readonly [value: string, label: string])[];
}) {
  return (
    <Field label={label}>
      <select name={name} className={controlClass()} defaultValue={initial}>
        <option value="">Any</option>
        {options.map((option) => {
          const [value, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </Field>
  );
}

/** The search form; it starts from the URL's values and hands what was submitted back as URL values. */
export function Filters({
  values,
  onApply,
  onReset,
}: {
  values: URLSearchParams;
  onApply: (values: Record<string, string | null>) => void;
  onReset: () => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onApply(Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? '').trim() || null])));
  };
  const initial = (name: (typeof FILTERS)[number]) => values.get(name) ?? '';
  return (
    <search>
      <Panel>
        <form onSubmit={submit} aria-label="Search transactions">
          <div className={forms.row}>
            <Field label="Transaction id, lock id, hash or wallet" grow>
              <input
                name="q"
                type="search"
                className={controlClass({ mono: true })}
                defaultValue={initial('q')}
                placeholder="tx_…, lk_…, hash or its first 8+ characters, bc1…"
                autoComplete="off"
                spellCheck={false}
              />
            </Field>
            <Button type="submit" variant="primary">
              Search
            </Button>
            <Button onClick={onReset}>Reset</Button>
          </div>
          <div className={forms.row}>
            <Choice name="status" label="Status" initial={initial('status')} options={TX_STATUSES} />
            <Choice name="provider" label="Provider" initial={initial('provider')} options={PROVIDER_KEYS} />
            <Field label="Chain">
              <input
                name="chain"
                className={controlClass({ narrow: true })}
                defaultValue={initial('chain')}
                placeholder="ethereum"
              />
            </Field>
            <Field label="From (UTC)">
              <input name="from" type="date" className={controlClass()} defaultValue={initial('from')} />
            </Field>
            <Field label="To (UTC)">
              <input name="to" type="date" className={controlClass()} defaultValue={initial('to')} />
            </Field>
            <Field label="Referral code">
              <input name="ref" className={controlClass({ narrow: true })} defaultValue={initial('ref')} />
            </Field>
            <Choice
              name="stale"
              label="Stale"
              initial={initial('stale')}
              options={[
                ['yes', 'Stale only'],
                ['no', 'Not stale'],
              ]}
            />
          </div>
        </form>
      </Panel>
    </search>
  );
}
