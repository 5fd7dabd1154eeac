CREATE TABLE "wallet_hourly_effects" (
	"wallet_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"delta" numeric(38, 18) NOT NULL,
	CONSTRAINT "wallet_hourly_effects_wallet_id_hour_pk" PRIMARY KEY("wallet_id","hour")
);
--> statement-breakpoint
ALTER TABLE "wallet_hourly_effects" ADD CONSTRAINT "wallet_hourly_effects_wallet_id_user_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."user_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transactions_user_applied_idx" ON "transactions" USING btree ("user_id",LEAST("completed_at", "transaction_date")) WHERE "transactions"."status" = 'completed' AND "transactions"."direction" <> 'none' AND "transactions"."wallet_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_user_deleted_idx" ON "transactions" USING btree ("user_id","deleted_at") WHERE "transactions"."deleted_at" IS NOT NULL;--> statement-breakpoint
-- The chart's dating of a row's effect: one place, shared by the triggers and the backfill.
-- A completed row that moves crypto adds its signed amount from the time it counts from (its
-- date, or its completion if earlier) and, once deleted, takes it back when it was deleted.
CREATE FUNCTION ledger_hour_events(r transactions) RETURNS TABLE (wallet_id uuid, hour timestamptz, delta numeric)
  LANGUAGE sql STABLE AS $$
  SELECT r.wallet_id, date_bin('1 hour', e.at, timestamptz '2000-01-01 00:00:00+00'), e.delta
    FROM (VALUES (LEAST(r.completed_at, r.transaction_date), 1), (r.deleted_at, -1)) AS e0(at, sign)
   CROSS JOIN LATERAL (SELECT e0.at,
          e0.sign * CASE WHEN r.direction = 'credit' THEN r.crypto_amount ELSE -(r.crypto_amount + r.fee) END) AS e(at, delta)
   WHERE r.status = 'completed' AND r.direction <> 'none' AND r.wallet_id IS NOT NULL AND e.at IS NOT NULL
$$;
--> statement-breakpoint
-- Every statement that writes ledger rows moves the hourly sums in the same transaction:
-- the old rows' events are taken out, the new rows' put in, one upsert per wallet and hour.
-- Whatever writes the rows (the ledger, a seed, a console), the sums follow.
CREATE FUNCTION wallet_hourly_effects_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO wallet_hourly_effects (wallet_id, hour, delta)
    SELECT e.wallet_id, e.hour, SUM(e.delta)
      FROM new_rows r CROSS JOIN LATERAL ledger_hour_events(r) e
     GROUP BY 1, 2
    ON CONFLICT (wallet_id, hour) DO UPDATE SET delta = wallet_hourly_effects.delta + EXCLUDED.delta;
  ELSE
    INSERT INTO wallet_hourly_effects (wallet_id, hour, delta)
    SELECT wallet_id, hour, SUM(delta)
      FROM (SELECT e.wallet_id, e.hour, -e.delta AS delta FROM old_rows r CROSS JOIN LATERAL ledger_hour_events(r) e
            UNION ALL
            SELECT e.wallet_id, e.hour, e.delta FROM new_rows r CROSS JOIN LATERAL ledger_hour_events(r) e) moved
     GROUP BY 1, 2 HAVING SUM(delta) <> 0
    ON CONFLICT (wallet_id, hour) DO UPDATE SET delta = wallet_hourly_effects.delta + EXCLUDED.delta;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER wallet_hourly_effects_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_hourly_effects_follow();
--> statement-breakpoint
CREATE TRIGGER wallet_hourly_effects_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wallet_hourly_effects_follow();
--> statement-breakpoint
-- The history so far.
INSERT INTO wallet_hourly_effects (wallet_id, hour, delta)
SELECT e.wallet_id, e.hour, SUM(e.delta)
  FROM transactions r CROSS JOIN LATERAL ledger_hour_events(r) e
 GROUP BY 1, 2;
