import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentViewer, homeFor, safeReturnPath } from '../../_lib/viewer';
import { AuthForm } from '../AuthForm';
import styles from '../auth.module.css';

export const metadata: Metadata = { title: 'Sign in · Switchyard' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const viewer = await currentViewer();
  if (viewer) redirect(safeReturnPath(next) ?? homeFor(viewer));
  return (
    <>
      <h1>Sign in</h1>
      <p className={styles.lead}>Support staff, operators and affiliates.</p>
      <AuthForm mode="sign-in" next={safeReturnPath(next) ?? '/dashboard'} />
    </>
  );
}
