ALTER TABLE "adults" ADD COLUMN "home_phone_ext" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "adults" ADD COLUMN "cell_phone_ext" text DEFAULT '' NOT NULL;