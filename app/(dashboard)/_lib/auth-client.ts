'use client';

import { createAuthClient } from 'better-auth/react';

/** Talks to /api/auth on this origin; Better Auth sets and clears the session cookie. */
export const authClient = createAuthClient();
