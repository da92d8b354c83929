-- Money in integer cents in every table (amendment 8): each numeric(12,2) dollar column becomes an
-- integer column of cents named <name>_cents, converted exactly (the values have at most 2 decimals,
-- so round(x * 100) changes none by a cent). integer holds one amount up to 21,474,836.47, as the
-- ledger's amount_cents does; sums are bigint in PostgreSQL and exact JavaScript numbers on the
-- server. A value too large for integer stops the migration instead of changing.
ALTER TABLE "accounts" ALTER COLUMN "late_fee_after_due_date" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "late_fee_after_due_date" SET DATA TYPE integer USING round("late_fee_after_due_date" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "late_fee_after_due_date" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "accounts" RENAME COLUMN "late_fee_after_due_date" TO "late_fee_after_due_date_cents";
--> statement-breakpoint
ALTER TABLE "program_periods" ALTER COLUMN "registration_fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "program_periods" ALTER COLUMN "registration_fee" SET DATA TYPE integer USING round("registration_fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "program_periods" ALTER COLUMN "registration_fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "program_periods" RENAME COLUMN "registration_fee" TO "registration_fee_cents";
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "first_child_reg_fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "first_child_reg_fee" SET DATA TYPE integer USING round("first_child_reg_fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "first_child_reg_fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "activities" RENAME COLUMN "first_child_reg_fee" TO "first_child_reg_fee_cents";
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "second_child_reg_fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "second_child_reg_fee" SET DATA TYPE integer USING round("second_child_reg_fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "second_child_reg_fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "activities" RENAME COLUMN "second_child_reg_fee" TO "second_child_reg_fee_cents";
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "third_child_reg_fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "third_child_reg_fee" SET DATA TYPE integer USING round("third_child_reg_fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "third_child_reg_fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "activities" RENAME COLUMN "third_child_reg_fee" TO "third_child_reg_fee_cents";
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "fee" SET DATA TYPE integer USING round("fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "activities" RENAME COLUMN "fee" TO "fee_cents";
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "sibling_fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "sibling_fee" SET DATA TYPE integer USING round("sibling_fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "activities" ALTER COLUMN "sibling_fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "activities" RENAME COLUMN "sibling_fee" TO "sibling_fee_cents";
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "amount" SET DATA TYPE integer USING round("amount" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "invoices" RENAME COLUMN "amount" TO "amount_cents";
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "auto_pay_discount_value" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "auto_pay_discount_value" SET DATA TYPE integer USING round("auto_pay_discount_value" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "auto_pay_discount_value" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "invoices" RENAME COLUMN "auto_pay_discount_value" TO "auto_pay_discount_value_cents";
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "amount" SET DATA TYPE integer USING round("amount" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "payments" RENAME COLUMN "amount" TO "amount_cents";
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "processing_fee" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "processing_fee" SET DATA TYPE integer USING round("processing_fee" * 100)::integer;
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "processing_fee" SET DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "payments" RENAME COLUMN "processing_fee" TO "processing_fee_cents";
