'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { authClient } from '../_lib/auth-client';

export function SignOutButton() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="small"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await authClient.signOut().catch(() => {});
        router.replace('/sign-in');
        router.refresh();
      }}
    >
      {pending ? 'Signing out…' : 'Sign out'}
    </Button>
  );
}
