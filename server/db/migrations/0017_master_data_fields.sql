ALTER TABLE "adults" ADD COLUMN "marital_status" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "children" ADD COLUMN "meal_eligibility" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "children" ADD COLUMN "tshirt_size" text DEFAULT '' NOT NULL;