'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authClient } from '../_lib/auth-client';
import styles from './dash.module.css';

export function SignOutButton() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className={`${styles.button} ${styles.buttonSmall}`}
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await authClient.signOut().catch(() => {});
        router.replace('/sign-in');
        router.refresh();
      }}
    >
      {pending ? 'Signing out…' : 'Sign out'}
    </button>
  );
}
