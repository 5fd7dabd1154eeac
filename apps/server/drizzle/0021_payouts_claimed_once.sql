ALTER TABLE "payout_transactions" ADD COLUMN "send_error" text;--> statement-breakpoint
ALTER TABLE "payout_transactions" ADD COLUMN "send_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "typed_at" timestamp with time zone;--> statement-breakpoint
-- Payouts completed before this column existed keep their completion: a reorganisation never pays them again.
UPDATE "payouts" SET "completed_at" = "updated_at" WHERE "state" IN ('completed', 'unverified');--> statement-breakpoint
UPDATE "payouts" SET "typed_at" = "updated_at" WHERE "state" = 'manual';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_output_claim_key" ON "payouts" USING btree ("chain","tx_hash","output_index") WHERE "payouts"."tx_hash" IS NOT NULL AND "payouts"."output_index" IS NOT NULL;