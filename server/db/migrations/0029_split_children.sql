-- Children split between two accounts (spec 3 split-child record): each charge of the child is posted
-- to both accounts by share when the billing job posts it; an invoice line records its account's share.
CREATE TABLE "split_children" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"primary_account_id" integer NOT NULL,
	"split_account_id" integer NOT NULL,
	"split_percentage" integer NOT NULL,
	CONSTRAINT "split_children_percentage" CHECK ("split_children"."split_percentage" between 1 and 99 and "split_children"."primary_account_id" <> "split_children"."split_account_id")
);
--> statement-breakpoint
ALTER TABLE "split_children" ADD CONSTRAINT "split_children_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_children" ADD CONSTRAINT "split_children_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_children" ADD CONSTRAINT "split_children_primary_account_id_accounts_id_fk" FOREIGN KEY ("primary_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_children" ADD CONSTRAINT "split_children_split_account_id_accounts_id_fk" FOREIGN KEY ("split_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "split_children_child" ON "split_children" USING btree ("child_id");
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "share_percent" integer DEFAULT 100 NOT NULL;
