/** Where playwright.demo.config.ts puts the demo dataset's e2e server; the demo specs read the same. */
export const DEMO_DATABASE_URL =
  process.env.E2E_DEMO_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/switchyard_e2e_demo';
