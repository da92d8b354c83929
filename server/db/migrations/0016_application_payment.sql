ALTER TABLE "application_drafts" ADD COLUMN "payment_status" text;--> statement-breakpoint
ALTER TABLE "application_drafts" ADD COLUMN "hold_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "application_drafts" ADD COLUMN "amount_due_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "application_drafts" ADD COLUMN "charged_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "application_drafts_hold" ON "application_drafts" USING btree ("payment_status","hold_until");