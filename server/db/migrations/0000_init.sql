CREATE TABLE "absence_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"child_ids" jsonb NOT NULL,
	"reason" text NOT NULL,
	"other_reason" text DEFAULT '' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"time_offered" text NOT NULL,
	"additional_info" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "absence_reasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"reason" text NOT NULL,
	"show_in_parent_portal" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_no" text NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"suspended_on" date,
	"collection" boolean DEFAULT false NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"delinquent" boolean DEFAULT false NOT NULL,
	"punch_pass" boolean DEFAULT false NOT NULL,
	"late_fee_after_due_date" numeric(12, 2) DEFAULT 0 NOT NULL,
	"apply_late_payment" boolean DEFAULT false NOT NULL,
	"do_not_apply_late_fee" boolean DEFAULT false NOT NULL,
	"hide_other_amount" boolean DEFAULT false NOT NULL,
	"show_projected_payment" boolean DEFAULT false NOT NULL,
	"com_ed" boolean DEFAULT false NOT NULL,
	"cc_onetime_payment_gateway_id" integer DEFAULT 0 NOT NULL,
	"echeck_onetime_payment_gateway_id" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"program_period_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"activity" text NOT NULL,
	"activity_type_id" integer DEFAULT 1 NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"timing" text DEFAULT '' NOT NULL,
	"days_per_week" integer DEFAULT 5 NOT NULL,
	"days_of_week" text DEFAULT 'M,T,W,TH,F' NOT NULL,
	"time_offered_code" text DEFAULT 'A' NOT NULL,
	"is_one_time" boolean DEFAULT false NOT NULL,
	"first_child_reg_fee" numeric(12, 2) DEFAULT 0 NOT NULL,
	"second_child_reg_fee" numeric(12, 2) DEFAULT 0 NOT NULL,
	"third_child_reg_fee" numeric(12, 2) DEFAULT 0 NOT NULL,
	"fee" numeric(12, 2) DEFAULT 0 NOT NULL,
	"fee_type" text DEFAULT 'PER_SP' NOT NULL,
	"sibling_fee" numeric(12, 2) DEFAULT 0 NOT NULL,
	"capacity" integer DEFAULT 30 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adults" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"account_holder" integer NOT NULL,
	"access_type" text DEFAULT 'F' NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"middle_initial" text DEFAULT '' NOT NULL,
	"gender_code" text DEFAULT 'U' NOT NULL,
	"street_address" text DEFAULT '' NOT NULL,
	"apartment_no" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state_code" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"work_phone" text DEFAULT '' NOT NULL,
	"work_phone_ext" text DEFAULT '' NOT NULL,
	"work_phone_none" boolean DEFAULT false NOT NULL,
	"home_phone" text DEFAULT '' NOT NULL,
	"home_phone_none" boolean DEFAULT false NOT NULL,
	"cell_phone" text DEFAULT '' NOT NULL,
	"cell_phone_none" boolean DEFAULT false NOT NULL,
	"text_message_consent" boolean DEFAULT false NOT NULL,
	"email_opted_out" boolean DEFAULT false NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"pin" text,
	"employment_status" text DEFAULT '' NOT NULL,
	"employer" text DEFAULT '' NOT NULL,
	"primary_language" text DEFAULT 'en' NOT NULL,
	"annual_income" text DEFAULT '' NOT NULL,
	"transportation" text DEFAULT '' NOT NULL,
	"household_size" integer,
	"is_district_employee" boolean DEFAULT false NOT NULL,
	"photo" "bytea",
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"location" text NOT NULL,
	"alert_text" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "attendance" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"attendance_date" date NOT NULL,
	"time_offered" text NOT NULL,
	"time_in" text,
	"time_out" text,
	"in_by" text,
	"out_by" text,
	"absent_reason" text
);
--> statement-breakpoint
CREATE TABLE "autopay_registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"payment_method_code" text NOT NULL,
	"frequency" text NOT NULL,
	"is_auto_pay" boolean DEFAULT true NOT NULL,
	"is_payment_on_file" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"start_date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bulletin_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"bulletin_id" integer NOT NULL,
	"name" text NOT NULL,
	"document_type" text NOT NULL,
	"mime_type" text NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bulletins" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "calendar_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"title" text NOT NULL,
	"start" text NOT NULL,
	"end" text NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "child_adults" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"relationship_id" integer NOT NULL,
	"relationship" text NOT NULL,
	"is_authorized_to_pick_up" boolean DEFAULT false NOT NULL,
	"is_emergency_contact" boolean DEFAULT false NOT NULL,
	"is_lives_with" boolean DEFAULT false NOT NULL,
	"do_not_release" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "children" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"middle_initial" text DEFAULT '' NOT NULL,
	"gender_code" text DEFAULT 'U' NOT NULL,
	"date_of_birth" date NOT NULL,
	"grade_level_code" text DEFAULT '' NOT NULL,
	"school" text DEFAULT '' NOT NULL,
	"home_site_id" integer,
	"split_account_id" integer,
	"split_percentage" integer,
	"photo" "bytea",
	"medical" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "communications" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"mode" text NOT NULL,
	"subject" text NOT NULL,
	"from_name" text NOT NULL,
	"description" text NOT NULL,
	"created_on" timestamp with time zone NOT NULL,
	"is_automatic" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"enrollment_date" date NOT NULL,
	"de_enroll_date" date,
	"days_of_week" text DEFAULT '' NOT NULL,
	"week_range" text,
	"status" text DEFAULT 'A' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"adult_id" integer,
	"device" text DEFAULT '' NOT NULL,
	"page_name" text NOT NULL,
	"url" text NOT NULL,
	"previous_url" text DEFAULT '' NOT NULL,
	"user_name" text DEFAULT '' NOT NULL,
	"browser" text DEFAULT '' NOT NULL,
	"event_date_time" text DEFAULT '' NOT NULL,
	"api_error_log_id" text DEFAULT '' NOT NULL,
	"stack_trace" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"form_name" text NOT NULL,
	"document_type" text NOT NULL,
	"mime_type" text NOT NULL,
	"file_name" text NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grade_levels" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"grade_level_code" text NOT NULL,
	"grade_level" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"service_period_detail_id" integer NOT NULL,
	"service_period" text NOT NULL,
	"invoice_date" date NOT NULL,
	"payment_due_date" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"balance" numeric(12, 2) NOT NULL,
	"auto_pay_discount_value" numeric(12, 2) DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logins" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"is_temporary_password" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"from_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"automatic_payment_registration_id" integer,
	"payment_method_code" text NOT NULL,
	"type" text NOT NULL,
	"last4_digits" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"expiry" text,
	"saved_on" date NOT NULL,
	"used_for_auto_pay" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"adult_id" integer,
	"payment_date" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"payment_method_code" text NOT NULL,
	"last4_digits" text DEFAULT '' NOT NULL,
	"payer_name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'APPROVED' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "program_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"program_period" text NOT NULL,
	"titles" jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" text NOT NULL,
	"program_kind" text NOT NULL,
	"program_period_type" integer DEFAULT 1 NOT NULL,
	"enrollment_option" text NOT NULL,
	"capacity_check" text DEFAULT 'C' NOT NULL,
	"can_register_online" boolean DEFAULT true NOT NULL,
	"can_enroll_online" boolean DEFAULT true NOT NULL,
	"enable_enrollment_in_parent_form" boolean DEFAULT true NOT NULL,
	"enable_automatic_registration" boolean DEFAULT false NOT NULL,
	"calendar_program_period_id" integer DEFAULT 0 NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"registration_start_at" timestamp with time zone,
	"registration_end_date" date,
	"is_punch_pass" boolean DEFAULT false NOT NULL,
	"is_other_district" boolean DEFAULT false NOT NULL,
	"registration_fee" numeric(12, 2) DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_name" text NOT NULL,
	"customer_id" integer NOT NULL,
	"program_name" text NOT NULL,
	"logo_url" text NOT NULL,
	"organisation" text NOT NULL,
	"support_phone" text DEFAULT '' NOT NULL,
	"support_email" text DEFAULT '' NOT NULL,
	"country_code" text DEFAULT 'US' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state_code" text DEFAULT '' NOT NULL,
	"languages" jsonb NOT NULL,
	"is_school_district" boolean DEFAULT false NOT NULL,
	"has_sms_license" boolean DEFAULT false NOT NULL,
	"attendance_allowed" boolean DEFAULT true NOT NULL,
	"program_options" jsonb NOT NULL,
	"features" jsonb NOT NULL,
	CONSTRAINT "providers_app_name_unique" UNIQUE("app_name"),
	CONSTRAINT "providers_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"program_period_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"status" text NOT NULL,
	"registration_date" date,
	"submitted_on" date,
	"is_pending_approval" boolean DEFAULT false NOT NULL,
	"is_enrollment_pending" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"login_id" integer NOT NULL,
	"adult_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"idle_expires_at" timestamp with time zone NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"locale" text DEFAULT 'en' NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "signin_audit" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer,
	"email" text NOT NULL,
	"login_id" integer,
	"ip" text NOT NULL,
	"outcome" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"site_name" text NOT NULL,
	"street_address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state_code" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "absence_notices" ADD CONSTRAINT "absence_notices_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "absence_notices" ADD CONSTRAINT "absence_notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "absence_notices" ADD CONSTRAINT "absence_notices_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "absence_reasons" ADD CONSTRAINT "absence_reasons_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adults" ADD CONSTRAINT "adults_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adults" ADD CONSTRAINT "adults_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_registrations" ADD CONSTRAINT "autopay_registrations_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_registrations" ADD CONSTRAINT "autopay_registrations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_registrations" ADD CONSTRAINT "autopay_registrations_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulletin_attachments" ADD CONSTRAINT "bulletin_attachments_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulletin_attachments" ADD CONSTRAINT "bulletin_attachments_bulletin_id_bulletins_id_fk" FOREIGN KEY ("bulletin_id") REFERENCES "public"."bulletins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulletins" ADD CONSTRAINT "bulletins_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "child_adults" ADD CONSTRAINT "child_adults_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "child_adults" ADD CONSTRAINT "child_adults_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "child_adults" ADD CONSTRAINT "child_adults_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "children" ADD CONSTRAINT "children_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "children" ADD CONSTRAINT "children_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "children" ADD CONSTRAINT "children_home_site_id_sites_id_fk" FOREIGN KEY ("home_site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_log" ADD CONSTRAINT "error_log_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grade_levels" ADD CONSTRAINT "grade_levels_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logins" ADD CONSTRAINT "logins_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logins" ADD CONSTRAINT "logins_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_automatic_payment_registration_id_autopay_registrations_id_fk" FOREIGN KEY ("automatic_payment_registration_id") REFERENCES "public"."autopay_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_adult_id_adults_id_fk" FOREIGN KEY ("adult_id") REFERENCES "public"."adults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_periods" ADD CONSTRAINT "program_periods_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_program_period_id_program_periods_id_fk" FOREIGN KEY ("program_period_id") REFERENCES "public"."program_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_child_id_children_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."children"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_login_id_logins_id_fk" FOREIGN KEY ("login_id") REFERENCES "public"."logins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_provider_no" ON "accounts" USING btree ("provider_id","account_no");--> statement-breakpoint
CREATE INDEX "adults_account" ON "adults" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE INDEX "attendance_child_date" ON "attendance" USING btree ("provider_id","child_id","attendance_date");--> statement-breakpoint
CREATE UNIQUE INDEX "child_adults_pair" ON "child_adults" USING btree ("child_id","adult_id");--> statement-breakpoint
CREATE INDEX "children_account" ON "children" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE INDEX "communications_account" ON "communications" USING btree ("provider_id","account_id","created_on");--> statement-breakpoint
CREATE INDEX "enrollments_account" ON "enrollments" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "grade_levels_provider_code" ON "grade_levels" USING btree ("provider_id","grade_level_code");--> statement-breakpoint
CREATE UNIQUE INDEX "logins_provider_email" ON "logins" USING btree ("provider_id","email");--> statement-breakpoint
CREATE INDEX "logins_email" ON "logins" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_child_pp" ON "registrations" USING btree ("program_period_id","child_id");--> statement-breakpoint
CREATE INDEX "signin_audit_email_at" ON "signin_audit" USING btree ("email","at");