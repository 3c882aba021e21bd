'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useId, useState } from 'react';
import styles from '../_components/dash.module.css';
import { authClient } from '../_lib/auth-client';

/** Sign-in and affiliate sign-up: both post to Better Auth on this origin, which sets the session cookie. */
export function AuthForm({ mode, next }: { mode: 'sign-in' | 'sign-up'; next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const ids = { name: useId(), email: useId(), password: useId(), error: useId() };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    setPending(true);
    setError(null);
    const result =
      mode === 'sign-in'
        ? await authClient.signIn.email({ email, password })
        : await authClient.signUp.email({ email, password, name: String(form.get('name') ?? '') });
    if (result.error) {
      setPending(false);
      setError(
        result.error.status === 429
          ? 'Too many attempts. Wait a few seconds and try again.'
          : (result.error.message ?? 'That did not work. Check the details and try again.'),
      );
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    <form className={styles.authForm} onSubmit={submit} aria-describedby={error ? ids.error : undefined} noValidate>
      {mode === 'sign-up' ? (
        <div className={styles.field}>
          <label className={styles.label} htmlFor={ids.name}>
            Name
          </label>
          <input className={styles.input} id={ids.name} name="name" autoComplete="name" required />
        </div>
      ) : null}
      <div className={styles.field}>
        <label className={styles.label} htmlFor={ids.email}>
          Email
        </label>
        <input className={styles.input} id={ids.email} name="email" type="email" autoComplete="email" required />
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={ids.password}>
          Password
        </label>
        <input
          className={styles.input}
          id={ids.password}
          name="password"
          type="password"
          minLength={mode === 'sign-up' ? 12 : undefined}
          autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
          required
        />
      </div>
      {error ? (
        <p id={ids.error} className={styles.formError} role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className={`${styles.button} ${styles.buttonPrimary}`} disabled={pending}>
        {pending ? 'Please wait…' : mode === 'sign-in' ? 'Sign in' : 'Create affiliate account'}
      </button>
      <p className={styles.authFooter}>
        {mode === 'sign-in' ? (
          <>
            Partner without an account? <Link href="/sign-up">Sign up as an affiliate</Link>
          </>
        ) : (
          <>
            Already have an account? <Link href="/sign-in">Sign in</Link>
          </>
        )}
      </p>
    </form>
  );
}
