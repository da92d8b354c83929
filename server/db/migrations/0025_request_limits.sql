CREATE TABLE "request_counts" (
	"route" text NOT NULL,
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_ends" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "request_counts_route_key" ON "request_counts" USING btree ("route","key");--> statement-breakpoint
CREATE INDEX "request_counts_window_ends" ON "request_counts" USING btree ("window_ends");
