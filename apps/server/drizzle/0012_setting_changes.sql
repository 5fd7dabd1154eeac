CREATE TABLE "app_setting_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"setting_key" text NOT NULL,
	"value" text NOT NULL,
	"proposed_by" uuid NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "app_setting_changes" ADD CONSTRAINT "app_setting_changes_setting_key_app_settings_setting_key_fk" FOREIGN KEY ("setting_key") REFERENCES "public"."app_settings"("setting_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_setting_changes" ADD CONSTRAINT "app_setting_changes_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_setting_changes" ADD CONSTRAINT "app_setting_changes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_setting_changes_one_pending_key" ON "app_setting_changes" USING btree ("setting_key") WHERE "app_setting_changes"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "app_setting_changes_proposed_idx" ON "app_setting_changes" USING btree ("proposed_at");--> statement-breakpoint
-- The states a change goes through; anything else is a bug the database refuses.
ALTER TABLE "app_setting_changes" ADD CONSTRAINT "app_setting_changes_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected', 'replaced'));
