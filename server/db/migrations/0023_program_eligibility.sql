ALTER TABLE "program_periods" ADD COLUMN "eligibility" jsonb;--> statement-breakpoint
ALTER TABLE "program_periods" ADD COLUMN "show_seats_left" boolean DEFAULT false NOT NULL;