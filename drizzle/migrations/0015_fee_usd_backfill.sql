-- Swaps whose fee came in several assets with no USD (Chainflip) kept a null fee_usd, so the totals
-- counted them as $0. Price each fee line as the fee model does (a line's own USD, else the first
-- priced catalog asset of its symbol, to the cent) and fill the USD figure the row is missing: the
-- recorded one once a poll recorded a fee, else the quoted one. Rows with an unpriced line stay null.
WITH "lines" AS (
  SELECT t."id",
    CASE
      WHEN jsonb_typeof(l."line" -> 'amountUsd') = 'number' THEN round((l."line" ->> 'amountUsd')::numeric, 2)
      WHEN (l."line" ->> 'amount') ~ '^\d+(\.\d+)?$' THEN round((l."line" ->> 'amount')::numeric * p."price_usd", 2)
    END AS "usd"
  FROM "transactions" t
  CROSS JOIN LATERAL jsonb_array_elements(t."fee_details") AS l("line")
  LEFT JOIN LATERAL (
    SELECT a."price_usd" FROM "assets" a
    WHERE a."active" AND a."price_usd" IS NOT NULL AND upper(a."symbol") = upper(l."line" ->> 'currency')
    ORDER BY a."id" LIMIT 1
  ) p ON true
  WHERE jsonb_typeof(t."fee_details") = 'array'
    AND jsonb_array_length(t."fee_details") > 0
    AND jsonb_typeof(l."line") = 'object'
    AND ((t."fee_amount" IS NOT NULL AND t."fee_amount_usd" IS NULL) OR (t."fee_amount" IS NULL AND t."quoted_fee_usd" IS NULL))
), "priced" AS (
  SELECT "id", sum("usd") AS "usd" FROM "lines" GROUP BY "id" HAVING bool_and("usd" IS NOT NULL)
)
UPDATE "transactions" t SET
  "fee_amount_usd" = CASE WHEN t."fee_amount" IS NOT NULL THEN priced."usd" ELSE t."fee_amount_usd" END,
  "quoted_fee_usd" = CASE WHEN t."fee_amount" IS NULL THEN priced."usd" ELSE t."quoted_fee_usd" END
FROM "priced"
WHERE priced."id" = t."id";
