CREATE TABLE "deposit_address_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset_id" text NOT NULL,
	"network" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fulfilled_at" timestamp with time zone,
	"fulfilled_by" uuid,
	"deposit_address_id" uuid,
	CONSTRAINT "deposit_address_requests_asset" CHECK ("deposit_address_requests"."asset_id" IN ('BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20')),
	CONSTRAINT "deposit_address_requests_open_unassigned" CHECK ("deposit_address_requests"."fulfilled_at" IS NOT NULL OR ("deposit_address_requests"."fulfilled_by" IS NULL AND "deposit_address_requests"."deposit_address_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "first_run_dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposit_address_requests" ADD CONSTRAINT "deposit_address_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_address_requests" ADD CONSTRAINT "deposit_address_requests_fulfilled_by_users_id_fk" FOREIGN KEY ("fulfilled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_address_requests" ADD CONSTRAINT "deposit_address_requests_deposit_address_id_deposit_addresses_id_fk" FOREIGN KEY ("deposit_address_id") REFERENCES "public"."deposit_addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_address_requests_open_key" ON "deposit_address_requests" USING btree ("user_id","asset_id") WHERE fulfilled_at IS NULL;--> statement-breakpoint
CREATE INDEX "deposit_address_requests_open_idx" ON "deposit_address_requests" USING btree ("requested_at") WHERE fulfilled_at IS NULL;