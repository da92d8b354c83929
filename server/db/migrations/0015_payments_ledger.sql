CREATE TABLE "gateway_events" (
	"gateway_code" integer NOT NULL,
	"event_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"entry_date" date NOT NULL,
	"due_date" date,
	"invoice_id" integer,
	"payment_id" integer,
	"refund_id" text,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_entries_refund_id_unique" UNIQUE("refund_id")
);
--> statement-breakpoint
CREATE TABLE "payment_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"public_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"purpose" text NOT NULL,
	"draft_id" integer,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"payment_method_code" text NOT NULL,
	"gateway_code" integer NOT NULL,
	"checkout_id" text,
	"checkout_url" text,
	"payer" jsonb NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"reason_code" text DEFAULT '' NOT NULL,
	"transaction_id" text,
	"payment_id" integer,
	"referrer" text DEFAULT '/paynow' NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"hold_until" timestamp with time zone,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payment_attempts_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "payment_attempts_checkout_id_unique" UNIQUE("checkout_id"),
	CONSTRAINT "payment_attempts_transaction_id_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processing_fee" numeric(12, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "attempt_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "gateway_transaction_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "auth_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "brand" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payer_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_mails" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_draft_id_application_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."application_drafts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gateway_events_pk" ON "gateway_events" USING btree ("gateway_code","event_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account" ON "ledger_entries" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_payment_kind" ON "ledger_entries" USING btree ("payment_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_idempotency" ON "payment_attempts" USING btree ("provider_id","account_id","idempotency_key");--> statement-breakpoint
-- the ledger takes over from the stored invoice balances: each invoice is a charge (a negative one a
-- credit) and each approved payment a payment
INSERT INTO "ledger_entries" ("provider_id", "account_id", "kind", "amount_cents", "entry_date", "due_date", "invoice_id", "description", "created_at")
SELECT "provider_id", "account_id", CASE WHEN "amount" >= 0 THEN 'CHARGE' ELSE 'CREDIT' END, abs(round("amount" * 100))::integer, "invoice_date",
  CASE WHEN "amount" >= 0 THEN "payment_due_date" END, CASE WHEN "amount" >= 0 THEN "id" END, "service_period", now() FROM "invoices";--> statement-breakpoint
INSERT INTO "ledger_entries" ("provider_id", "account_id", "kind", "amount_cents", "entry_date", "payment_id", "description", "created_at")
SELECT "provider_id", "account_id", 'PAYMENT', round("amount" * 100)::integer, "payment_date", "id", '', now() FROM "payments" WHERE "status" = 'APPROVED';--> statement-breakpoint
DELETE FROM "invoices" WHERE "amount" < 0;--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "balance";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_attempt_id_unique" UNIQUE("attempt_id");