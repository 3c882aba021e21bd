import { QueryClient } from '@tanstack/react-query';
import superjson from 'superjson';

/** Shared by the server prefetch and the browser: superjson carries Dates across the hydration boundary. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
      dehydrate: {
        serializeData: superjson.serialize,
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
