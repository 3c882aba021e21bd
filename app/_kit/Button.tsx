import type { ComponentProps } from 'react';
import styles from './button.module.css';

export interface ButtonLook {
  variant?: 'primary' | 'secondary' | 'accent';
  size?: 'small' | 'medium' | 'large';
  block?: boolean;
}

/** The class list of a button, for elements that only look like one (a link to the next step). */
export function buttonClass({ variant = 'secondary', size = 'medium', block = false }: ButtonLook = {}): string {
  return [
    styles.button,
    variant !== 'secondary' && styles[variant],
    size !== 'medium' && styles[size],
    block && styles.block,
  ]
    .filter(Boolean)
    .join(' ');
}

export function Spinner() {
  return <span className={styles.spinner} aria-hidden="true" />;
}

/**
 * A button; `busy` shows a spinner and tells assistive technology the action is running. A busy button
 * stays focusable (aria-disabled, its clicks ignored) rather than `disabled`: a disabled button drops
 * the focus to <body>, and the person pressing it loses their place.
 */
export function Button({
  variant,
  size,
  block,
  busy = false,
  className,
  children,
  type = 'button',
  disabled,
  onClick,
  ...props
}: ButtonLook & { busy?: boolean } & ComponentProps<'button'>) {
  return (
    <button
      type={type}
      className={[buttonClass({ variant, size, block }), className].filter(Boolean).join(' ')}
      aria-busy={busy || undefined}
      disabled={busy ? undefined : disabled}
      aria-disabled={busy || undefined}
      onClick={busy ? (event) => event.preventDefault() : onClick}
      {...props}
    >
      {busy && <Spinner />}
      {children}
    </button>
  );
}
