'use client';

import { useEffect, useState } from 'react';
import { api } from '../_lib/api';

/** Display names for chain and provider keys; falls back to the key until (or unless) the catalog loads. */
export function useCatalogNames() {
  const [chains, setChains] = useState<Record<string, string>>({});
  const [providers, setProviders] = useState<Record<string, string>>({});

  useEffect(() => {
    const controller = new AbortController();
    api
      .chains(controller.signal)
      .then(({ data }) => setChains(Object.fromEntries(data.map((c) => [c.key, c.name]))))
      .catch(() => {});
    api
      .sources(controller.signal)
      .then(({ data }) => setProviders(Object.fromEntries(data.map((s) => [s.key, s.name]))))
      .catch(() => {});
    return () => controller.abort();
  }, []);

  return {
    chainName: (key: string | null) => (key ? (chains[key] ?? key) : 'unknown chain'),
    providerName: (key: string) => providers[key] ?? key,
  };
}
