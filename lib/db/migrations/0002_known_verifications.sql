CREATE TABLE "known_verifications" (
	"public_id" text PRIMARY KEY NOT NULL,
	"ref_id" text,
	"cpf_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
