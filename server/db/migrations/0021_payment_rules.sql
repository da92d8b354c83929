ALTER TABLE "payment_attempts" ADD COLUMN "refund_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- one live attempt per account: the older of several open ones close (a payment still taken on one is posted and refunded)
UPDATE "payment_attempts" p SET "status" = 'EXPIRED', "reason_code" = 'REPLACED' WHERE p."status" = 'CREATED' AND EXISTS (SELECT 1 FROM "payment_attempts" q WHERE q."provider_id" = p."provider_id" AND q."account_id" = p."account_id" AND q."status" = 'CREATED' AND q."id" > p."id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_live" ON "payment_attempts" USING btree ("provider_id","account_id") WHERE status = 'CREATED';--> statement-breakpoint
CREATE INDEX "payment_attempts_open" ON "payment_attempts" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_approved_posted" CHECK (status <> 'APPROVED' OR payment_id IS NOT NULL);