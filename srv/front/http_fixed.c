/* The libmicrohttpd front's answers (split from http.c): a core answer
 * made into a libmicrohttpd response, and the fixed answers kept and
 * queued again as they are (issue 17, static files). */
#include <pthread.h>
#include <stdint.h>

#include "http_conn.h"

/* libmicrohttpd's response for a core answer; the body is handed over.
 * A lent one is sent from where it is, and its owner's reference is
 * dropped when libmicrohttpd destroys the response: the last connection
 * sending it, or the fixed answer's slot, let go. */
struct MHD_Response *
wp_http_response(struct wp_response *res)
{
	struct MHD_Response *r =
		res->lent_put ? MHD_create_response_from_buffer_with_free_callback_cls(
					res->body_len, res->body, res->lent_put, res->lent)
			      : MHD_create_response_from_buffer(res->body_len, res->body,
			                                        MHD_RESPMEM_MUST_FREE);

	if (!r)
		return NULL;
	res->body = NULL;
	res->lent_put = NULL;
	res->lent = NULL;
	for (size_t i = 0; i < res->nheaders; i++)
		if (MHD_add_response_header(r, res->headers[i].name, res->headers[i].value) != MHD_YES) {
			MHD_destroy_response(r);
			return NULL;
		}
	return r;
}

/* --- Fixed answers (issue 17, static files) ---
 * A static file's answer is the same for every request with its key
 * (wp_response.fixed): it is made into a libmicrohttpd response once and
 * queued again as it is, as a bare server does: no copy of the body, no
 * headers made per request. One slot per key hash; a key that takes a
 * slot releases the answer there (connections sending it hold their own
 * reference). */
#define FIXED_SLOTS 64

static struct {
	pthread_mutex_t lock;
	struct fixed_slot {
		uint64_t key;
		struct MHD_Response *r;
		unsigned status;
	} slot[FIXED_SLOTS];
} fixed = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The key wp_http_has_fixed() last said this thread holds: the core then made
 * only the status (the core adds headers to every answer, so their
 * number does not tell). */
static __thread uint64_t said_held;

void
wp_http_fixed_begin(void)
{
	said_held = 0;
}

int
wp_http_has_fixed(uint64_t key)
{
	int hit;

	pthread_mutex_lock(&fixed.lock);
	hit = fixed.slot[key % FIXED_SLOTS].key == key;
	pthread_mutex_unlock(&fixed.lock);
	said_held = hit ? key : 0;
	return hit;
}

/* Queues the fixed answer res names, kept first if res carries it whole;
 * 0 when it is not held (taken out since wp_http_has_fixed() said it was). */
int
wp_http_queue_fixed(struct MHD_Connection *c, struct wp_response *res, enum MHD_Result *ret)
{
	struct fixed_slot *s = &fixed.slot[res->fixed % FIXED_SLOTS];
	int whole = said_held != res->fixed;
	struct MHD_Response *r = whole ? wp_http_response(res) : NULL, *old = NULL;
	int held;

	said_held = 0;
	if (whole && !r) {
		*ret = MHD_NO;
		return 1;
	}
	pthread_mutex_lock(&fixed.lock);
	if (r) {
		old = s->r;
		*s = (struct fixed_slot){.key = res->fixed, .r = r, .status = (unsigned)res->status};
	}
	held = s->key == res->fixed;
	if (held)
		*ret = MHD_queue_response(c, s->status, s->r);
	pthread_mutex_unlock(&fixed.lock);
	if (old)
		MHD_destroy_response(old);
	return held;
}

void
wp_http_fixed_clear(void)
{
	pthread_mutex_lock(&fixed.lock);
	for (size_t i = 0; i < FIXED_SLOTS; i++) {
		if (fixed.slot[i].r)
			MHD_destroy_response(fixed.slot[i].r);
		fixed.slot[i] = (struct fixed_slot){0};
	}
	pthread_mutex_unlock(&fixed.lock);
}
