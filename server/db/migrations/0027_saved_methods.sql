-- Saved payment methods (a gateway token per method, never a card or account number) and bank
-- debits that settle days later or come back returned. The ledger gains the kind RETURN (a returned
-- payment raises the balance back); kind is free text, so that needs no change here.
-- Rows saved before tokens existed have none and cannot be charged; their expiry is rewritten from
-- MM/YYYY to the gateway's MM/YY.
ALTER TABLE "payment_methods" ADD COLUMN "token" text;
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "gateway_code" integer;
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "status" text DEFAULT 'ACTIVE' NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "status_reason" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "expiry_notice_for" text;
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "validated" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "payment_methods" SET "expiry" = substr("expiry", 1, 3) || substr("expiry", 6, 2) WHERE "expiry" ~ '^[0-9]{2}/[0-9]{4}$';
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_token" ON "payment_methods" USING btree ("provider_id","gateway_code","token") WHERE "token" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "settlement" text DEFAULT 'SETTLED' NOT NULL;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "return_code" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payment_method_id" integer;
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "payment_method_id" integer;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "save_method" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;
