ALTER TABLE "user_two_factor" ADD COLUMN "pending_session_id" uuid;--> statement-breakpoint
ALTER TABLE "user_two_factor" ADD COLUMN "pending_backup_codes_encrypted" text;--> statement-breakpoint
ALTER TABLE "user_two_factor" ADD COLUMN "pending_phrase_encrypted" text;--> statement-breakpoint
ALTER TABLE "user_two_factor" ADD COLUMN "pending_phrase_check" jsonb;--> statement-breakpoint
ALTER TABLE "user_two_factor" DROP COLUMN "pending_backup_code_hashes";--> statement-breakpoint
-- A setup started before this change has no encrypted codes and no session to show them to
-- again: it is dropped, and the next setup call starts a new one.
UPDATE "user_two_factor" SET "pending_secret_encrypted" = NULL WHERE "pending_secret_encrypted" IS NOT NULL;
