CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"target_user_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"price_id" text NOT NULL,
	"price_usd" numeric(30, 10) NOT NULL,
	"change_24h_pct" numeric(12, 6),
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_staking" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"asset_id" text DEFAULT 'ETH' NOT NULL,
	"accrued_pending" numeric(38, 18) DEFAULT '0' NOT NULL,
	"last_checkpoint_at" timestamp with time zone NOT NULL,
	"daily_rate" numeric(20, 18) NOT NULL,
	"cycle_start_at" timestamp with time zone NOT NULL,
	"staking_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_staking_pending_nonnegative" CHECK ("user_staking"."accrued_pending" >= 0),
	CONSTRAINT "user_staking_rate_nonnegative" CHECK ("user_staking"."daily_rate" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bank_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"account_name_encrypted" text NOT NULL,
	"account_number_encrypted" text NOT NULL,
	"bsb_number_encrypted" text NOT NULL,
	"amount_fiat" numeric(20, 2) NOT NULL,
	"currency" text DEFAULT 'AUD' NOT NULL,
	CONSTRAINT "bank_transfers_transaction_id_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_id" uuid,
	"transaction_type" text NOT NULL,
	"direction" text NOT NULL,
	"asset_id" text NOT NULL,
	"network" text,
	"crypto_amount" numeric(38, 18) DEFAULT '0' NOT NULL,
	"fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"usd_amount" numeric(20, 2),
	"aud_amount" numeric(20, 2),
	"currency" text,
	"exchange_rate" numeric(20, 10),
	"withdrawal_address" text,
	"memo" text,
	"transaction_hash" text,
	"status" text NOT NULL,
	"reason" text,
	"transaction_date" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"created_by" uuid,
	"processed_by" uuid,
	"staking_cycle_start" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "transactions_amount_nonnegative" CHECK ("transactions"."crypto_amount" >= 0 AND "transactions"."fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_bank_details" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"full_name_encrypted" text NOT NULL,
	"bsb_encrypted" text NOT NULL,
	"account_number_encrypted" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_transaction_counts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"live_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_symbol" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_address_unique" UNIQUE("address")
);
--> statement-breakpoint
CREATE TABLE "user_wallets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_id" text NOT NULL,
	"network" text NOT NULL,
	"balance_crypto" numeric(38, 18) DEFAULT '0' NOT NULL,
	"held" numeric(38, 18) DEFAULT '0' NOT NULL,
	"balance_fiat" numeric(20, 2) DEFAULT '0' NOT NULL,
	"wallet_address" text,
	"nickname" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_wallets_balance_nonnegative" CHECK ("user_wallets"."balance_crypto" >= 0),
	CONSTRAINT "user_wallets_held_nonnegative" CHECK ("user_wallets"."held" >= 0),
	CONSTRAINT "user_wallets_available_nonnegative" CHECK ("user_wallets"."balance_crypto" >= "user_wallets"."held")
);
--> statement-breakpoint
ALTER TABLE "user_staking" ADD CONSTRAINT "user_staking_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_wallet_id_user_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."user_wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_bank_details" ADD CONSTRAINT "user_bank_details_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_transaction_counts" ADD CONSTRAINT "user_transaction_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_wallets" ADD CONSTRAINT "user_wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_user_idx" ON "audit_log" USING btree ("target_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "price_snapshots_id_time_idx" ON "price_snapshots" USING btree ("price_id","taken_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_staking_cycle_start_idx" ON "user_staking" USING btree ("cycle_start_at");--> statement-breakpoint
CREATE INDEX "transactions_user_date_idx" ON "transactions" USING btree ("user_id","transaction_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_pending_idx" ON "transactions" USING btree ("transaction_date") WHERE "transactions"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_staking_cycle_key" ON "transactions" USING btree ("user_id","staking_cycle_start") WHERE "transactions"."transaction_type" = 'staking_reward';--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_deposit_hash_key" ON "transactions" USING btree ("asset_id",lower("transaction_hash")) WHERE "transactions"."transaction_type" = 'deposit' AND "transactions"."deleted_at" IS NULL AND "transactions"."transaction_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_user_withdrawals_idx" ON "transactions" USING btree ("user_id","transaction_date") WHERE "transactions"."transaction_type" = 'withdrawal' AND "transactions"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transactions_user_rewards_idx" ON "transactions" USING btree ("user_id") WHERE "transactions"."transaction_type" = 'staking_reward' AND "transactions"."status" = 'completed' AND "transactions"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transactions_user_live_idx" ON "transactions" USING btree ("user_id") WHERE "transactions"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "deposit_addresses_user_idx" ON "deposit_addresses" USING btree ("user_id","is_active");--> statement-breakpoint
CREATE UNIQUE INDEX "user_wallets_user_asset_key" ON "user_wallets" USING btree ("user_id","asset_id");--> statement-breakpoint
-- Accounts created before the ledger existed get their four wallets.
INSERT INTO "user_wallets" ("user_id", "asset_id", "network")
SELECT u.id, a.asset_id, a.network
  FROM "users" u
  CROSS JOIN (VALUES ('BTC', 'bitcoin'), ('ETH', 'ethereum'), ('USDT-ERC20', 'erc20'), ('USDT-TRC20', 'trc20')) AS a(asset_id, network)
ON CONFLICT ("user_id", "asset_id") DO NOTHING;
--> statement-breakpoint
-- Live row counts per user, kept by statement-level triggers: one update per statement,
-- however many rows it writes.
CREATE FUNCTION transactions_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_transaction_counts (user_id, live_count)
  SELECT user_id, count(*) FROM inserted_rows WHERE deleted_at IS NULL GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET live_count = user_transaction_counts.live_count + EXCLUDED.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION transactions_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_transaction_counts c SET live_count = c.live_count + d.delta
    FROM (SELECT n.user_id,
                 sum(CASE WHEN o.deleted_at IS NULL AND n.deleted_at IS NOT NULL THEN -1
                          WHEN o.deleted_at IS NOT NULL AND n.deleted_at IS NULL THEN 1 ELSE 0 END) AS delta
            FROM new_rows n JOIN old_rows o ON o.id = n.id GROUP BY n.user_id) d
   WHERE c.user_id = d.user_id AND d.delta <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION transactions_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_transaction_counts c SET live_count = c.live_count - d.n
    FROM (SELECT user_id, count(*) AS n FROM deleted_rows WHERE deleted_at IS NULL GROUP BY user_id) d
   WHERE c.user_id = d.user_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER transactions_count_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_count_inserted();
--> statement-breakpoint
CREATE TRIGGER transactions_count_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_count_updated();
--> statement-breakpoint
CREATE TRIGGER transactions_count_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_count_deleted();
--> statement-breakpoint
-- The audit log is append-only (DEVIATIONS M7): the database itself refuses to change or
-- remove a row, whatever code or console asks. A statement trigger also stops an UPDATE or
-- DELETE that matches no row, and TRUNCATE, which row triggers never see. Whoever can
-- disable triggers can still get round this; the rows' hash chain shows that they did.
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
