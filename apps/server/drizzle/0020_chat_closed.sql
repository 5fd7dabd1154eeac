ALTER TABLE "chat_rooms" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "closed_by" uuid;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_rooms_closed_idx" ON "chat_rooms" USING btree ("closed_at") WHERE "chat_rooms"."closed_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_closed" CHECK (("chat_rooms"."status" = 'closed') = ("chat_rooms"."closed_at" IS NOT NULL));