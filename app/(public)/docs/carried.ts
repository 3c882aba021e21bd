'use client';

import { useSyncExternalStore } from 'react';

/**
 * Ids one "Try it" answer hands to the next step: the best route's provider and routeId to lock,
 * the lockId to execute, the transactionId to track and status.
 */
export type Carried = Partial<Record<'provider' | 'routeId' | 'lockId' | 'transactionId', string>>;

let carried: Carried = {};
const listeners = new Set<() => void>();

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** Takes the ids out of an API answer's body, when it has any. */
export function carryFrom(body: unknown): void {
  const data = (body as { data?: unknown } | null)?.data;
  const route = Array.isArray(data) ? data[0] : data;
  if (!route || typeof route !== 'object') return;
  const found: Carried = {
    provider: text((route as Record<string, unknown>).provider),
    routeId: text((route as Record<string, unknown>).routeId),
    lockId: text((route as Record<string, unknown>).lockId),
    transactionId: text(((route as Record<string, unknown>).transaction as { id?: unknown } | undefined)?.id),
  };
  const next = Object.fromEntries(Object.entries(found).filter(([, value]) => value)) as Carried;
  if (!Object.keys(next).length) return;
  carried = { ...carried, ...next };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useCarried = () =>
  useSyncExternalStore(
    subscribe,
    () => carried,
    () => carried,
  );

/** The carried ids a request body has fields for. */
export function carriedFieldsIn(body: string | undefined, values: Carried): (keyof Carried)[] {
  try {
    const parsed = JSON.parse(body ?? '') as Record<string, unknown>;
    if (!parsed || typeof parsed !== 'object') return [];
    // A body that names a provider takes the route chosen from it too.
    return (Object.keys(values) as (keyof Carried)[]).filter(
      (key) => key in parsed || (key === 'routeId' && 'provider' in parsed),
    );
  } catch {
    return [];
  }
}

/** A request body with the carried ids written over the fields it already has. */
export function fillBody(body: string, values: Carried): string {
  const keys = carriedFieldsIn(body, values);
  if (!keys.length) return body;
  const parsed = JSON.parse(body) as Record<string, unknown>;
  for (const key of keys) parsed[key] = values[key];
  return JSON.stringify(parsed, null, 2);
}
