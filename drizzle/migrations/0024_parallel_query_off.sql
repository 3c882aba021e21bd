-- Parallel query off for every session of the product's database, as JIT (0021). A generic plan's estimates
-- grow with the table (a hash range "matches" 0.5 % of it): past a few million swaps the support search by
-- hash planned each branch of its merge as a Gather Merge of two workers, 20-30 ms of starting workers
-- per branch for reads of a few buffers (63-75 ms at 10M against 12-15 ms at 100k). Every statement of this
-- product reads an index range; none is a scan worth dividing. Only the owner can change the defaults: the
-- product also asks for it on each direct connection.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET max_parallel_workers_per_gather = 0', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'parallel query stays on for %: only its owner can change its defaults', current_database();
END
$$;
