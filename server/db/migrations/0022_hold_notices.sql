ALTER TABLE "application_drafts" ADD COLUMN "notice_email" text;--> statement-breakpoint
ALTER TABLE "application_drafts" ADD COLUMN "notice_locale" text;--> statement-breakpoint
ALTER TABLE "application_drafts" ADD COLUMN "hold_warned_at" timestamp with time zone;