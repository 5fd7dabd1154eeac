CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload_encrypted" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "transactions_deposit_hash_key";--> statement-breakpoint
DROP INDEX "transactions_user_withdrawals_idx";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "editor_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "price_usd" numeric(20, 10);--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."done_at" IS NULL;--> statement-breakpoint
-- A chain transaction credited twice before this change (once written with 0x, once
-- without) would stop the index below from being built and the app from starting. The
-- money stays as it is: the later credit is marked in its hash as a duplicate of the first,
-- for the operator to find and correct (delete the duplicate deposit, which reverses it).
UPDATE "transactions" t
   SET "transaction_hash" = t."transaction_hash" || ' (duplicate of ' || d.first_id || ')'
  FROM (SELECT "id", first_value("id") OVER (
                 PARTITION BY "asset_id", lower(regexp_replace("transaction_hash", '^0[xX]', ''))
                 ORDER BY "transaction_date", "id") AS first_id
          FROM "transactions"
         WHERE "transaction_type" = 'deposit' AND "deleted_at" IS NULL
           AND "transaction_hash" IS NOT NULL) d
 WHERE t."id" = d."id" AND d."id" <> d.first_id;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_deposit_chain_hash_key" ON "transactions" USING btree ("asset_id",lower(regexp_replace("transaction_hash", '^0[xX]', ''))) WHERE "transactions"."transaction_type" = 'deposit' AND "transactions"."deleted_at" IS NULL AND "transactions"."transaction_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_user_payouts_idx" ON "transactions" USING btree ("user_id","transaction_date") WHERE "transactions"."transaction_type" IN ('withdrawal', 'bank_transfer') AND "transactions"."deleted_at" IS NULL;--> statement-breakpoint
-- Every editor so far: before this change only the last one was kept.
UPDATE "transactions" SET "editor_ids" = ARRAY["updated_by"] WHERE "updated_by" IS NOT NULL;
--> statement-breakpoint
-- History that cannot be rewritten (issue: four eyes). A payout that was completed or
-- rejected is final, and an adjustment is corrected by a reversing adjustment, never
-- changed or deleted: the database refuses it whatever code or console asks.
CREATE FUNCTION transactions_refuse_final_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'transaction % is final: % is not allowed', OLD.id, TG_OP
    USING ERRCODE = 'check_violation', CONSTRAINT = 'transactions_final';
END $$;
--> statement-breakpoint
CREATE TRIGGER transactions_final BEFORE UPDATE ON transactions
  FOR EACH ROW
  WHEN ((OLD.transaction_type IN ('withdrawal', 'bank_transfer') AND OLD.status IN ('completed', 'failed'))
        OR OLD.transaction_type = 'adjustment')
  EXECUTE FUNCTION transactions_refuse_final_change();
--> statement-breakpoint
-- A session that ends (signed out, revoked, expired, deleted with its user) is announced on
-- coffer_sessions with its user's id, once per user and statement, when the deleting
-- transaction commits: every instance then checks that user's sockets at once instead of
-- at its next periodic re-check.
CREATE FUNCTION sessions_announce_end() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ended uuid;
BEGIN
  FOR ended IN SELECT DISTINCT user_id FROM ended_sessions LOOP
    PERFORM pg_notify('coffer_sessions', ended::text);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_announce_end AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS ended_sessions FOR EACH STATEMENT EXECUTE FUNCTION sessions_announce_end();
