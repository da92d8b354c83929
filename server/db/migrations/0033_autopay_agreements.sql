-- Autopay enrolment: the automatic payment agreement a parent signs (one row per enrolment or change,
-- kept after a cancel, e-mailed as a PDF and downloadable), when a registration was cancelled, a
-- program whose autopay only the provider discontinues, an enrolment asked with a payment on the
-- gateway's page (the method saved there pays the autopay), and files sent with an e-mail.
CREATE TABLE "autopay_agreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"automatic_payment_registration_id" integer NOT NULL,
	"kind" text NOT NULL,
	"payer_adult_id" integer NOT NULL,
	"signed_by_adult_id" integer NOT NULL,
	"payer_name" text NOT NULL,
	"payer_email" text DEFAULT '' NOT NULL,
	"payment_method_id" integer,
	"payment_method_code" text NOT NULL,
	"method_type" text NOT NULL,
	"last4_digits" text NOT NULL,
	"frequency" text NOT NULL,
	"start_date" date NOT NULL,
	"max_charge_cents" integer,
	"discount_percent" text DEFAULT '0' NOT NULL,
	"terms_version" text NOT NULL,
	"terms_html" text NOT NULL,
	"locale" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"mail_id" integer
);
--> statement-breakpoint
ALTER TABLE "autopay_agreements" ADD CONSTRAINT "autopay_agreements_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_agreements" ADD CONSTRAINT "autopay_agreements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_agreements" ADD CONSTRAINT "autopay_agreements_automatic_payment_registration_id_autopay_registrations_id_fk" FOREIGN KEY ("automatic_payment_registration_id") REFERENCES "public"."autopay_registrations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_agreements" ADD CONSTRAINT "autopay_agreements_payer_adult_id_adults_id_fk" FOREIGN KEY ("payer_adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_agreements" ADD CONSTRAINT "autopay_agreements_signed_by_adult_id_adults_id_fk" FOREIGN KEY ("signed_by_adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "autopay_agreements" ADD CONSTRAINT "autopay_agreements_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "autopay_agreements_account" ON "autopay_agreements" USING btree ("provider_id","account_id");
--> statement-breakpoint
ALTER TABLE "autopay_registrations" ADD COLUMN "cancelled_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "program_periods" ADD COLUMN "autopay_mandatory" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "autopay_request" jsonb;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;
