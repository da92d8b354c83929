-- One-time enrolment (spec 2.11, 9 application type 5): an application's type, the dates a
-- single-date activity is offered on (with their own seats: a seats row per activity and date), and
-- the dates a one-time enrolment took, held while the parent pays and released when the hold ends.
ALTER TABLE "application_drafts" ADD COLUMN "application_type_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE TABLE "onetime_dates" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"date" date NOT NULL,
	"capacity" integer
);
--> statement-breakpoint
ALTER TABLE "onetime_dates" ADD CONSTRAINT "onetime_dates_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "onetime_dates" ADD CONSTRAINT "onetime_dates_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "onetime_dates_activity_date" ON "onetime_dates" USING btree ("activity_id","date");
--> statement-breakpoint
CREATE TABLE "onetime_takes" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"draft_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"seat_id" integer NOT NULL,
	"date" date NOT NULL,
	"fee_cents" integer NOT NULL,
	"status" text DEFAULT 'held' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD CONSTRAINT "onetime_takes_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD CONSTRAINT "onetime_takes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD CONSTRAINT "onetime_takes_draft_id_application_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."application_drafts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD CONSTRAINT "onetime_takes_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD CONSTRAINT "onetime_takes_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "onetime_takes" ADD CONSTRAINT "onetime_takes_seat_id_seats_id_fk" FOREIGN KEY ("seat_id") REFERENCES "public"."seats"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "onetime_takes_draft" ON "onetime_takes" USING btree ("draft_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "onetime_takes_child_date_held" ON "onetime_takes" USING btree ("child_id","activity_id","date") WHERE "status" = 'held';
