'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { controlClass, Field } from '@/app/_kit/Field';
import { FormStatus } from '@/app/_kit/Notice';
import { authClient } from '../_lib/auth-client';
import styles from './auth.module.css';

/** Sign-in and affiliate sign-up: both post to Better Auth on this origin, which sets the session cookie. */
export function AuthForm({ mode, next }: { mode: 'sign-in' | 'sign-up'; next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const errorId = useId();

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
    <form className={styles.form} onSubmit={submit} aria-describedby={error ? errorId : undefined} noValidate>
      {mode === 'sign-up' ? (
        <Field label="Name">
          <input className={controlClass()} name="name" autoComplete="name" required />
        </Field>
      ) : null}
      <Field label="Email">
        <input className={controlClass()} name="email" type="email" autoComplete="email" required />
      </Field>
      <Field label="Password">
        <input
          className={controlClass()}
          name="password"
          type="password"
          minLength={mode === 'sign-up' ? 12 : undefined}
          autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
          required
        />
      </Field>
      {error ? (
        <FormStatus tone="error" id={errorId} role="alert">
          {error}
        </FormStatus>
      ) : null}
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? 'Please wait…' : mode === 'sign-in' ? 'Sign in' : 'Create affiliate account'}
      </Button>
      <p className={styles.footer}>
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
