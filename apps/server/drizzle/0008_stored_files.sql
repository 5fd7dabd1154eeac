CREATE TABLE "stored_files" (
	"key" text PRIMARY KEY NOT NULL,
	"content_encrypted" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
