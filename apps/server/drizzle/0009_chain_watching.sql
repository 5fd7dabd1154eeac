CREATE TABLE "chain_address_counters" (
	"chain" text PRIMARY KEY NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"chain" text NOT NULL,
	"height" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"block_time" timestamp with time zone,
	CONSTRAINT "chain_blocks_chain_height_pk" PRIMARY KEY("chain","height")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"height" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"node_tip" bigint,
	"last_block_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"address" text NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_id" text NOT NULL,
	"amount_minor" numeric(78, 0) NOT NULL,
	"block_height" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'confirming' NOT NULL,
	"transaction_id" uuid,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD COLUMN "chain" text;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD COLUMN "derivation_index" integer;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_deposits_once_key" ON "chain_deposits" USING btree ("chain","tx_hash","output_index");--> statement-breakpoint
CREATE INDEX "chain_deposits_user_idx" ON "chain_deposits" USING btree ("user_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "chain_deposits_open_idx" ON "chain_deposits" USING btree ("chain","block_height") WHERE status = 'confirming';--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_chain_index_key" ON "deposit_addresses" USING btree ("chain","derivation_index") WHERE derivation_index IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_user_chain_key" ON "deposit_addresses" USING btree ("user_id","chain") WHERE derivation_index IS NOT NULL;