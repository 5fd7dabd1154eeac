CREATE TABLE "staff_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject_user_id" uuid,
	"target_key" text,
	"funds_subject" boolean DEFAULT false NOT NULL,
	"payload" jsonb NOT NULL,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"result" jsonb,
	"proposed_by" uuid NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	CONSTRAINT "staff_changes_status" CHECK ("staff_changes"."status" IN ('pending', 'approved', 'rejected', 'replaced', 'expired')),
	CONSTRAINT "staff_changes_decided" CHECK (("staff_changes"."status" = 'pending') = ("staff_changes"."decided_at" IS NULL))
);
--> statement-breakpoint
-- Settings' four-eyes proposals move onto the one mechanism for every two-person change.
INSERT INTO "staff_changes" ("id", "kind", "target_key", "payload", "summary", "before", "after",
  "proposed_by", "proposed_at", "expires_at", "status", "decided_by", "decided_at")
SELECT c."id", 'setting', c."setting_key",
       jsonb_build_object('key', c."setting_key", 'value', c."value"),
       'Set ' || c."setting_key" || ' to ' || c."value",
       NULL, jsonb_build_object(c."setting_key", c."value"),
       c."proposed_by", c."proposed_at", c."proposed_at" + interval '72 hours', c."status",
       c."decided_by", CASE WHEN c."status" = 'pending' THEN NULL ELSE coalesce(c."decided_at", c."proposed_at") END
  FROM "app_setting_changes" c;--> statement-breakpoint
DROP TABLE "app_setting_changes" CASCADE;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "corrects_transaction_id" uuid;--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "roles" text[] DEFAULT '{owner,approver,treasurer,compliance,support,auditor}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_changes" ADD CONSTRAINT "staff_changes_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_changes" ADD CONSTRAINT "staff_changes_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_changes" ADD CONSTRAINT "staff_changes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_changes_one_pending_target" ON "staff_changes" USING btree ("kind","target_key") WHERE "staff_changes"."status" = 'pending' AND "staff_changes"."target_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "staff_changes_pending_idx" ON "staff_changes" USING btree ("proposed_at","id") WHERE "staff_changes"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "staff_changes_funding_idx" ON "staff_changes" USING btree ("subject_user_id","decided_at") WHERE "staff_changes"."funds_subject" AND "staff_changes"."status" = 'approved';--> statement-breakpoint
ALTER TABLE "admin_users" ADD CONSTRAINT "admin_users_roles" CHECK (cardinality("admin_users"."roles") > 0 AND "admin_users"."roles" <@ '{owner,approver,treasurer,compliance,support,auditor}'::text[]);