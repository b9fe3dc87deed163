/* What both turn floors (bareturn.c, bareasync.c) do a turn: the minimal
 * durable turn in its single-statement optimistic form (run.py,
 * OPTIMISTIC_TURN) on bench_matches row $1, and a fixed answer about the
 * size of warpostd's turn answer. */
#ifndef BARETURN_H
#define BARETURN_H

#include <signal.h>

#include <microhttpd.h>

#define TURN_SQL                                                                            \
	"WITH u AS (UPDATE bench_matches SET seq = seq + 1, snapshot = jsonb_set(snapshot, "    \
	"'{turn}', to_jsonb(seq + 1)) WHERE id = $1::int RETURNING seq) INSERT INTO bench_posts " \
	"SELECT $1::int, seq, '{\"type\":\"move\",\"from\":\"d1\",\"to\":\"d2\"}' FROM u"

static const char answer[] =
	"{\"id\":1,\"seq\":13,\"version\":14,\"status\":\"active\",\"awaiting\":[1],"
	"\"events\":[{\"type\":\"moved\",\"from\":\"d1\",\"to\":\"d2\"}],\"view\":{\"turn\":7,"
	"\"pieces\":[{\"at\":\"d2\",\"kind\":\"scout\",\"seat\":0},{\"at\":\"d7\",\"kind\":"
	"\"scout\",\"seat\":1}]},\"result\":null,\"draw_offer\":null,\"clock\":null,"
	"\"updated_at\":\"2026-11-28T15:30:00Z\"}";

/* Both end on SIGTERM or SIGINT, and answer from the same two responses. */
static struct MHD_Response *ok_resp, *fail_resp;
static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
bare_start(void)
{
	ok_resp = MHD_create_response_from_buffer(sizeof(answer) - 1, (void *)answer,
	                                          MHD_RESPMEM_PERSISTENT);
	fail_resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(ok_resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
}

#endif
