-- Postgres' JIT compiles a statement whose estimated cost passes jit_above_cost. A generic plan's
-- estimates grow with the table (a hash prefix "matches" 0.5 % of it), so past a few million swaps the
-- support search by hash spent 41 of its 42 ms compiling a plan that then read 28 buffers. No statement
-- of this product is an analytic scan worth compiling: JIT is off for every session of its database
-- (the web's, the workers', a pooler's and the replica's alike). A role that does not own the database
-- cannot change its defaults: the product then still turns JIT off on each direct connection, and the
-- README says to run this statement as the owner where a pooler sits in front.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'jit stays on for %: only its owner can change its defaults', current_database();
END
$$;
