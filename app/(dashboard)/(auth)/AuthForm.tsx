'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { controlClass, Field } from '@/app/_kit/Field';
import { FormStatus } from '@/app/_kit/Notice';
import { type FieldErrors, plainFieldErrors } from '@/server/schemas/plain-words';
import { ACCOUNT_NOUNS, signInInput, signUpInput } from '@/server/schemas/users';
import { authClient } from '../_lib/auth-client';
import styles from './auth.module.css';
import { authErrorWords } from './auth-errors';

/** Sign-in and affiliate sign-up: both post to Better Auth on this origin, which sets the session cookie. */
export function AuthForm({ mode, next }: { mode: 'sign-in' | 'sign-up'; next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const errorId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries(['name', 'email', 'password'].map((key) => [key, String(form.get(key) ?? '')]));
    const parsed = (mode === 'sign-in' ? signInInput : signUpInput).safeParse(values);
    setError(null);
    if (!parsed.success) {
      setFieldErrors(plainFieldErrors(parsed.error.issues, ACCOUNT_NOUNS, values));
      return;
    }
    setFieldErrors({});
    setPending(true);
    const { email, password } = parsed.data;
    const result =
      mode === 'sign-in'
        ? await authClient.signIn.email({ email, password })
        : await authClient.signUp.email({ email, password, name: values.name?.trim() ?? '' });
    if (result.error) {
      setPending(false);
      const words = authErrorWords(result.error);
      setFieldErrors(words.fields);
      setError(words.form);
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    <form className={styles.form} onSubmit={submit} aria-describedby={error ? errorId : undefined} noValidate>
      {mode === 'sign-up' ? (
        <Field label="Name" error={fieldErrors.name}>
          <input className={controlClass()} name="name" autoComplete="name" required />
        </Field>
      ) : null}
      <Field label="Email" error={fieldErrors.email}>
        <input className={controlClass()} name="email" type="email" autoComplete="email" required />
      </Field>
      <Field
        label="Password"
        error={fieldErrors.password}
        hint={mode === 'sign-up' ? 'At least 12 characters' : undefined}
      >
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
