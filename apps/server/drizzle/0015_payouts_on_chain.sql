CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain" text NOT NULL,
	"state" text DEFAULT 'built' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"change_index" integer,
	"conflict_hash" text,
	"conflict_height" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_change_outputs" (
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"derivation_index" integer NOT NULL,
	"amount_minor" numeric(78, 0) NOT NULL,
	"script" text NOT NULL,
	"block_height" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_inputs" (
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"batch_id" uuid NOT NULL,
	"amount_minor" numeric(78, 0) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"state" text DEFAULT 'unsigned' NOT NULL,
	"tx_hash" text,
	"unsigned" text NOT NULL,
	"built" jsonb NOT NULL,
	"signed_hex" text,
	"nonce" integer,
	"fee_minor" numeric(78, 0),
	"fee_rate" numeric(20, 3),
	"conflict_hash" text,
	"conflict_height" bigint,
	"replaces" uuid,
	"block_height" bigint,
	"block_hash" text,
	"broadcast_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"transaction_id" uuid PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"asset_id" text NOT NULL,
	"address" text NOT NULL,
	"match_key" text NOT NULL,
	"amount_minor" numeric(78, 0) NOT NULL,
	"state" text DEFAULT 'approved' NOT NULL,
	"approved_by" uuid,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"batch_id" uuid,
	"tx_hash" text,
	"output_index" integer,
	"block_height" bigint,
	"block_hash" text,
	"network_fee_minor" numeric(78, 0),
	"waiting_reason" text,
	"returned_count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_inputs" ADD CONSTRAINT "payout_inputs_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_transactions" ADD CONSTRAINT "payout_transactions_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_batches_chain_idx" ON "payout_batches" USING btree ("chain","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_change_outputs_key" ON "payout_change_outputs" USING btree ("tx_hash","output_index");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_inputs_once_key" ON "payout_inputs" USING btree ("chain","tx_hash","output_index");--> statement-breakpoint
CREATE INDEX "payout_inputs_batch_idx" ON "payout_inputs" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "payout_transactions_batch_idx" ON "payout_transactions" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transactions_hash_key" ON "payout_transactions" USING btree ("chain","tx_hash") WHERE "payout_transactions"."tx_hash" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transactions_live_nonce_key" ON "payout_transactions" USING btree ("chain","nonce") WHERE "payout_transactions"."nonce" IS NOT NULL AND "payout_transactions"."state" IN ('unsigned', 'broadcast', 'mined');--> statement-breakpoint
CREATE INDEX "payouts_state_idx" ON "payouts" USING btree ("chain","state","approved_at");--> statement-breakpoint
CREATE INDEX "payouts_batch_idx" ON "payouts" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "payouts_tx_idx" ON "payouts" USING btree ("chain","tx_hash");