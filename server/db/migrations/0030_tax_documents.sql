-- Year-end tax documents: a provider marks an activity or a miscellaneous charge as not care (a
-- field trip, a T-shirt), and the amounts paid for it are left out of what the documents call care.
ALTER TABLE "activities" ADD COLUMN "is_care" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "misc_charges" ADD COLUMN "is_care" boolean DEFAULT true NOT NULL;
