CREATE TABLE "application_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"login_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	"product" text NOT NULL,
	"program_period_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "application_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "application_tokens" ADD CONSTRAINT "application_tokens_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_tokens" ADD CONSTRAINT "application_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_tokens" ADD CONSTRAINT "application_tokens_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_tokens_account" ON "application_tokens" USING btree ("provider_id","account_id");