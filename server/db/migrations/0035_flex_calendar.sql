-- The calendar product (spec 2.11 flex-scheduled dates, enrolment option C): the provider's scheduled
-- holidays of a program, the flex dates a parent adds (kept as a taken date of a calendar enrolment,
-- beside the one-time enrolment's, with the kind of plan date it made), and the per-account iCal feed
-- whose secret address is kept only as its SHA-256.
CREATE TABLE "calendar_holidays" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"program_period_id" integer NOT NULL,
	"date" date NOT NULL,
	"name" text NOT NULL,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_holidays" ADD CONSTRAINT "calendar_holidays_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "calendar_holidays" ADD CONSTRAINT "calendar_holidays_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_holidays_program_date" ON "calendar_holidays" USING btree ("program_period_id","date");
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD COLUMN "kind" text DEFAULT 'oneTime' NOT NULL;
--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_token_hash" ON "calendar_feeds" USING btree ("token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_account_live" ON "calendar_feeds" USING btree ("account_id") WHERE "revoked_at" IS NULL;
