CREATE TABLE "enrollment_dates" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "program_periods" ADD COLUMN "enable_weekend_scheduling" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "enrollment_dates" ADD CONSTRAINT "enrollment_dates_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_dates" ADD CONSTRAINT "enrollment_dates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_dates" ADD CONSTRAINT "enrollment_dates_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_dates" ADD CONSTRAINT "enrollment_dates_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrollment_dates_account" ON "enrollment_dates" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollment_dates_child_activity_day_kind" ON "enrollment_dates" USING btree ("child_id","activity_id","date","kind");