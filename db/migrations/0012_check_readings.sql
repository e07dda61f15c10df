CREATE TABLE "check_readings" (
	"hash" text NOT NULL,
	"reader" text NOT NULL,
	"reading" json NOT NULL,
	CONSTRAINT "check_readings_hash_reader_pk" PRIMARY KEY("hash","reader")
);
