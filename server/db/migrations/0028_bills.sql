-- Bills: a program's service periods and billing cycle, an activity's fee per period, invoices made
-- by the billing job (one per account and period, one line per enrolment, each line posted once as a
-- ledger CHARGE for its child) and at most one late fee per invoice.
ALTER TABLE "program_periods" ADD COLUMN "billing_cycle" text;
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "fees_by_sp" jsonb;
--> statement-breakpoint
CREATE TABLE "service_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"program_period_id" integer NOT NULL,
	"period_type" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"invoiced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_periods" ADD CONSTRAINT "service_periods_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "service_periods" ADD CONSTRAINT "service_periods_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "service_periods_program_start" ON "service_periods" USING btree ("program_period_id","start_date");
--> statement-breakpoint
CREATE INDEX "service_periods_invoice_date" ON "service_periods" USING btree ("provider_id","invoice_date");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_account_period" ON "invoices" USING btree ("provider_id","account_id","service_period_detail_id");
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"enrollment_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"kind" text NOT NULL,
	"fee_type" text NOT NULL,
	"rate_cents" integer NOT NULL,
	"days" integer NOT NULL,
	"scheduled_days" integer NOT NULL,
	"prorated" boolean NOT NULL,
	"amount_cents" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_invoice_enrollment" ON "invoice_lines" USING btree ("invoice_id","enrollment_id");
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "child_id" integer;
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "invoice_line_id" integer;
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_invoice_line_id_invoice_lines_id_fk" FOREIGN KEY ("invoice_line_id") REFERENCES "public"."invoice_lines"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_invoice_late_fee" ON "ledger_entries" USING btree ("invoice_id") WHERE "kind" = 'LATE_FEE';
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_invoice_line" ON "ledger_entries" USING btree ("invoice_line_id");
