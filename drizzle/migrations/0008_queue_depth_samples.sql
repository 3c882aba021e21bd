CREATE TABLE "queue_depth_samples" (
	"sampled_at" timestamp with time zone NOT NULL,
	"queue" text NOT NULL,
	"waiting" integer NOT NULL,
	"active" integer NOT NULL,
	"delayed" integer NOT NULL,
	"failed" integer NOT NULL,
	CONSTRAINT "queue_depth_samples_sampled_at_queue_pk" PRIMARY KEY("sampled_at","queue")
);
