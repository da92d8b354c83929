-- Punch passes (the punch pass product): the passes a provider offers for a program (a number of
-- visits per child or per family, a price, an expiry date and a refund policy in the provider's
-- languages), the passes an account holds (bought through the checkout as an application draft of its
-- own type, valid once paid), and the check-ins that used a punch (one per attendance record).
ALTER TABLE "attendance" ADD COLUMN "program_period_id" integer;
--> statement-breakpoint
CREATE TABLE "punch_passes" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"program_period_id" integer NOT NULL,
	"name" text NOT NULL,
	"refund_policy" text DEFAULT '' NOT NULL,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"price_cents" integer NOT NULL,
	"visits" integer NOT NULL,
	"scope" text NOT NULL,
	"expires_on" date NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "punch_passes" ADD CONSTRAINT "punch_passes_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "punch_passes" ADD CONSTRAINT "punch_passes_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "punch_holdings" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"pass_id" integer NOT NULL,
	"child_id" integer,
	"draft_id" integer,
	"visits" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"expires_on" date NOT NULL,
	"two_left_sent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "punch_holdings_used_within" CHECK ("used" >= 0 AND "used" <= "visits")
);
--> statement-breakpoint
ALTER TABLE "punch_holdings" ADD CONSTRAINT "punch_holdings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "punch_holdings" ADD CONSTRAINT "punch_holdings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "punch_holdings" ADD CONSTRAINT "punch_holdings_pass_id_punch_passes_id_fk" FOREIGN KEY ("pass_id") REFERENCES "public"."punch_passes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "punch_holdings" ADD CONSTRAINT "punch_holdings_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "punch_holdings" ADD CONSTRAINT "punch_holdings_draft_id_application_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."application_drafts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "punch_holdings_draft" ON "punch_holdings" USING btree ("draft_id");
--> statement-breakpoint
CREATE TABLE "punch_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"attendance_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"date" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "punch_uses" ADD CONSTRAINT "punch_uses_holding_id_punch_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."punch_holdings"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "punch_uses" ADD CONSTRAINT "punch_uses_attendance_id_attendance_id_fk" FOREIGN KEY ("attendance_id") REFERENCES "public"."attendance"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "punch_uses_attendance" ON "punch_uses" USING btree ("attendance_id");
