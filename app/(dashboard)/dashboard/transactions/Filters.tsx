import { type FormEvent, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { controlClass, Field } from '@/app/_kit/Field';
import { Panel } from '@/app/_kit/Panel';
import { providerName } from '@/server/catalog/names';
import { PROVIDER_KEYS } from '@/server/providers/keys';
import type { FieldErrors } from '@/server/schemas/plain-words';
import { TX_STATUSES } from '@/server/transactions/statuses';
import forms from '../forms.module.css';
import { checkDayRange } from './search-params';

const FILTERS = ['q', 'status', 'provider', 'chain', 'from', 'to', 'ref', 'stale', 'late'] as const;
const YES_NO_FILTERS = [
  ['stale', 'Stale', 'Stale only', 'Not stale'],
  ['late', 'Late', 'Late only', 'Not late'],
] as const;

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

export type ChainOption = readonly [key: string, name: string];

/**
 * A day typed as the tables write it (YYYY-MM-DD): a native date picker shows the browser's locale
 * format instead, which disagrees with every date on the page.
 */
function DateField({ name, label, initial, error }: { name: string; label: string; initial: string; error?: string }) {
  return (
    <Field label={label} hint="YYYY-MM-DD" error={error}>
      <input
        name={name}
        className={controlClass({ narrow: true })}
        defaultValue={initial}
        placeholder="2026-01-31"
        inputMode="numeric"
        autoComplete="off"
      />
    </Field>
  );
}

/**
 * The search form; it starts from the URL's values and hands what was submitted back as URL values.
 * Dates that are not days stop the search with a message at their field, as a date the URL carried
 * but the search ignored (`ignored`) does.
 */
export function Filters({
  values,
  chains,
  ignored,
  onApply,
  onReset,
}: {
  values: URLSearchParams;
  chains: readonly ChainOption[];
  ignored: FieldErrors;
  onApply: (values: Record<string, string | null>) => void;
  onReset: () => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>(ignored);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typed = Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? '').trim() || null]));
    const dateErrors = checkDayRange(typed);
    setErrors(dateErrors);
    const invalid = Object.keys(dateErrors)[0];
    if (invalid) {
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    onApply(typed);
  };
  const initial = (name: (typeof FILTERS)[number]) => values.get(name) ?? '';
  return (
    <search>
      <Panel>
        <form onSubmit={submit} aria-label="Search transactions" noValidate>
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
          <div className={`${forms.row} ${forms.rowTop}`}>
            <Choice name="status" label="Status" initial={initial('status')} options={TX_STATUSES} />
            <Choice
              name="provider"
              label="Provider"
              initial={initial('provider')}
              options={PROVIDER_KEYS.map((key) => [key, providerName(key)] as const)}
            />
            <Choice name="chain" label="Chain" initial={initial('chain')} options={chains} />
            <DateField name="from" label="From (UTC)" initial={initial('from')} error={errors.from} />
            <DateField name="to" label="To (UTC)" initial={initial('to')} error={errors.to} />
            <Field label="Referral code">
              <input name="ref" className={controlClass({ narrow: true })} defaultValue={initial('ref')} />
            </Field>
            {YES_NO_FILTERS.map(([name, label, yes, no]) => (
              <Choice
                key={name}
                name={name}
                label={label}
                initial={initial(name)}
                options={[
                  ['yes', yes],
                  ['no', no],
                ]}
              />
            ))}
          </div>
        </form>
      </Panel>
    </search>
  );
}
