import { cloneElement, type ReactElement, type ReactNode, useId } from 'react';
import styles from './field.module.css';

/**
 * The class list of an input, select or textarea. `fit`: as wide as its content, for a control in a
 * table cell, which would otherwise squeeze it and cut its value.
 */
export function controlClass({
  mono = false,
  narrow = false,
  fit = false,
}: {
  mono?: boolean;
  narrow?: boolean;
  fit?: boolean;
} = {}): string {
  return [styles.control, mono && styles.mono, narrow && styles.narrow, fit && styles.fit].filter(Boolean).join(' ');
}

interface FieldProps {
  label: ReactNode;
  /** The control's id; one is made up when the caller does not need to know it. */
  id?: string;
  hint?: ReactNode;
  error?: string;
  /** Takes the free width of a row of fields. */
  grow?: boolean;
  /** Ids of messages shown elsewhere that also describe the control, and whether one of them is an error. */
  describedBy?: string;
  invalid?: boolean;
  children: ReactElement<Record<string, unknown>>;
}

/** A labelled control with its hint and its error, both wired up as the control's description. */
export function Field({ label, id, hint, error, grow = false, describedBy, invalid, children }: FieldProps) {
  const madeUp = useId();
  const controlId = id ?? madeUp;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const description = [errorId, hintId, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={grow ? `${styles.field} ${styles.grow}` : styles.field}>
      <label htmlFor={controlId} className={styles.label}>
        {label}
      </label>
      {cloneElement(children, {
        id: controlId,
        'aria-invalid': error || invalid ? true : undefined,
        'aria-describedby': description,
      })}
      {error && (
        <p id={errorId} className={styles.error}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
    </div>
  );
}
