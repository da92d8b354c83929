CREATE TABLE "medical_field_defs" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"field_no" integer NOT NULL,
	"field_caption" text NOT NULL,
	"display_message" text DEFAULT '' NOT NULL,
	"is_mandatory" boolean DEFAULT false NOT NULL,
	"has_standard_values" text DEFAULT 'N' NOT NULL,
	"is_other_standard_enabled" boolean DEFAULT false NOT NULL,
	"explanation_type" text DEFAULT 'O' NOT NULL,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relationships" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"relationship_id" integer NOT NULL,
	"relationship" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_defined_field_defs" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"entity" text NOT NULL,
	"field_name" text NOT NULL,
	"caption" text NOT NULL,
	"is_mandatory" boolean DEFAULT false NOT NULL,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adults" ADD COLUMN "driver_license" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "adults" ADD COLUMN "user_defined_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "children" ADD COLUMN "user_defined_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "field_options" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "medical_field_defs" ADD CONSTRAINT "medical_field_defs_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relationships" ADD CONSTRAINT "relationships_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_defined_field_defs" ADD CONSTRAINT "user_defined_field_defs_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "medical_field_defs_provider_no" ON "medical_field_defs" USING btree ("provider_id","field_no");--> statement-breakpoint
CREATE UNIQUE INDEX "relationships_provider_id" ON "relationships" USING btree ("provider_id","relationship_id");--> statement-breakpoint
CREATE UNIQUE INDEX "udf_defs_provider_field" ON "user_defined_field_defs" USING btree ("provider_id","entity","field_name");