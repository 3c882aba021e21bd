// Intentionally empty: see package.json. Next.js aliases `server-only` to its own module in both bundles.
