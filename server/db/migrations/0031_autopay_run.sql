-- The autopay run: a row per autopay charge and try (unique per account, service period and try, so a
-- rerun or a second instance charges once), with its retry schedule (next_try_date, final); the
-- e-mails telling a parent of a charge ahead (one per account and service period); spec 3's autopay
-- errors behind spec 2.12's alert; and the parent's optional maximum per charge.
ALTER TABLE "autopay_registrations" ADD COLUMN "max_charge_cents" integer;
--> statement-breakpoint
CREATE TABLE "autopay_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"automatic_payment_registration_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"service_period_detail_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"charge_date" date NOT NULL,
	"payment_method_id" integer,
	"payment_method_code" text NOT NULL,
	"amount_due_cents" integer NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"amount_cents" integer NOT NULL,
	"payment_attempt_id" integer,
	"payment_id" integer,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reason_code" text DEFAULT '' NOT NULL,
	"decline_class" text DEFAULT '' NOT NULL,
	"next_try_date" date,
	"final" boolean DEFAULT false NOT NULL,
	"parent_told_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "autopay_charges_payment_attempt_id_unique" UNIQUE("payment_attempt_id")
);
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_automatic_payment_registration_id_autopay_registrations_id_fk" FOREIGN KEY ("automatic_payment_registration_id") REFERENCES "public"."autopay_registrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_payment_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("payment_attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_charges_account_period_attempt" ON "autopay_charges" USING btree ("provider_id","account_id","service_period_detail_id","attempt");
--> statement-breakpoint
CREATE INDEX "autopay_charges_retry" ON "autopay_charges" USING btree ("provider_id","next_try_date") WHERE "autopay_charges"."next_try_date" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "autopay_charges_open" ON "autopay_charges" USING btree ("provider_id","status");
--> statement-breakpoint
CREATE TABLE "autopay_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"service_period_detail_id" integer NOT NULL,
	"charge_date" date NOT NULL,
	"amount_cents" integer NOT NULL,
	"payment_method_id" integer,
	"payment_method_code" text NOT NULL,
	"days_ahead" integer NOT NULL,
	"outbox_id" integer,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "autopay_notices" ADD CONSTRAINT "autopay_notices_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_notices" ADD CONSTRAINT "autopay_notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_notices" ADD CONSTRAINT "autopay_notices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_notices" ADD CONSTRAINT "autopay_notices_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_notices_account_period" ON "autopay_notices" USING btree ("provider_id","account_id","service_period_detail_id");
--> statement-breakpoint
CREATE TABLE "autopay_errors" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"autopay_charge_id" integer NOT NULL,
	"transaction_status_code" text NOT NULL,
	"payment_amount_cents" integer NOT NULL,
	"transaction_date" date NOT NULL,
	"payment_method_code" text NOT NULL,
	"payment_method" text DEFAULT '' NOT NULL,
	"bank_account_details" text DEFAULT '' NOT NULL,
	"reason_code" text DEFAULT '' NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "autopay_errors_autopay_charge_id_unique" UNIQUE("autopay_charge_id")
);
--> statement-breakpoint
ALTER TABLE "autopay_errors" ADD CONSTRAINT "autopay_errors_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_errors" ADD CONSTRAINT "autopay_errors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_errors" ADD CONSTRAINT "autopay_errors_autopay_charge_id_autopay_charges_id_fk" FOREIGN KEY ("autopay_charge_id") REFERENCES "public"."autopay_charges"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "autopay_errors_account" ON "autopay_errors" USING btree ("provider_id","account_id");
