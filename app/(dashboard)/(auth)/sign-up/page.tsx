import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { selfSignUpOpen } from '@/server/auth/auth';
import { getAppContext } from '@/server/context';
import { currentViewer, homeFor } from '../../_lib/viewer';
import { AuthForm } from '../AuthForm';
import styles from '../auth.module.css';

export const metadata: Metadata = { title: 'Affiliate sign-up · Switchyard' };

export default async function SignUpPage() {
  const viewer = await currentViewer();
  if (viewer) redirect(homeFor(viewer));
  const open = await selfSignUpOpen(getAppContext());
  return (
    <>
      <h1>Become an affiliate</h1>
      {open ? (
        <>
          <p className={styles.lead}>Create referral links and see the swaps they bring in.</p>
          <AuthForm mode="sign-up" next="/dashboard/affiliates" />
        </>
      ) : (
        <p className={styles.lead}>
          Affiliate sign-up is closed right now. <Link href="/sign-in">Sign in</Link> if you already have an account.
        </p>
      )}
    </>
  );
}
