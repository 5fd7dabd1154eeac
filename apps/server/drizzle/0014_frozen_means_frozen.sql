CREATE TABLE "set_password_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "unfreeze_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"requested_by" uuid,
	"reason" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_reason" text
);
--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "new_password_required_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "set_password_tokens" ADD CONSTRAINT "set_password_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unfreeze_requests" ADD CONSTRAINT "unfreeze_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unfreeze_requests" ADD CONSTRAINT "unfreeze_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unfreeze_requests" ADD CONSTRAINT "unfreeze_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unfreeze_requests_pending_key" ON "unfreeze_requests" USING btree ("user_id") WHERE decided_at IS NULL;--> statement-breakpoint
-- A request is decided once, as approved or rejected, and then says when and by whom.
ALTER TABLE "unfreeze_requests" ADD CONSTRAINT "unfreeze_requests_decision_check"
  CHECK ((decision IS NULL) = (decided_at IS NULL) AND (decision IS NULL OR decision IN ('approved', 'rejected')));
