/* Notifications in the store (issue 14): webhooks, their outbox and
 * delivery log, e-mail digest settings. Same conventions as store.h. */
#ifndef WP_NOTIFY_STORE_H
#define WP_NOTIFY_STORE_H

#include "store.h"

/* The events a player can be told of (sql/005_notifications.sql). */
#define WP_EVENT_YOUR_TURN "your_turn"
#define WP_EVENT_MATCH_OVER "match_over"
#define WP_EVENT_DRAW_OFFERED "draw_offered"
#define WP_EVENT_TIME_RUNNING_OUT "time_running_out"

#define WP_WEBHOOK_URL_MAX 2000

/* The LISTEN thread (listen.c) also hears NOTIFY wp_outbox, which the
 * outbox triggers send with their rows, and calls fn on each (and after
 * reconnecting, when some may have been missed). */
void wp_listen_outbox_hook(void (*fn)(void));

struct wp_webhook {
	int64_t id;
	char url[WP_WEBHOOK_URL_MAX + 1];
	char created_at[WP_TIME_MAX];
};
/* WP_ERR_NOT_FOUND when the player has `max` webhooks already. */
enum wp_err wp_db_webhook_insert(struct wp_conn *c, int64_t player, const char *url,
                                 const char *secret, int max, struct wp_webhook *out);
/* *out malloc'd (free it). */
enum wp_err wp_db_webhooks(struct wp_conn *c, int64_t player, struct wp_webhook **out, int *n);
/* WP_ERR_NOT_FOUND unless the player owns the webhook. */
enum wp_err wp_db_webhook_delete(struct wp_conn *c, int64_t player, int64_t id);
enum wp_err wp_db_webhook_owned(struct wp_conn *c, int64_t player, int64_t id);

/* One line of a webhook's delivery log. */
struct wp_delivery {
	int64_t id, game;
	char event[24], state[16];
	int seq, seat, attempts;
	int last_status;         /* 0: no answer yet */
	char *last_error;        /* owned or NULL */
	char created_at[WP_TIME_MAX], next_at[WP_TIME_MAX], delivered_at[WP_TIME_MAX];
	json_object *log;        /* owned: [{attempt, at, status, error}] or NULL */
};
/* The newest `limit` deliveries of a webhook; free with wp_deliveries_free(). */
enum wp_err wp_db_deliveries(struct wp_conn *c, int64_t webhook, int limit,
                             struct wp_delivery **out, int *n);
void wp_deliveries_free(struct wp_delivery *d, int n);

/* An outbox row claimed for one attempt. */
struct wp_outbox {
	int64_t game, id;
	int attempt;             /* this attempt's number, from 1 */
	char event[24], status[16], ruleset[64];
	int seat, seq, seats;
	unsigned awaiting;
	char created_at[WP_TIME_MAX];
	char deadline[WP_TIME_MAX];  /* time_running_out: the seat's deadline; else "" */
	char *url, *secret;      /* owned */
};
/* Claims up to `limit` due rows, each leased for lease_s seconds. */
enum wp_err wp_db_outbox_claim(struct wp_conn *c, int limit, double lease_s,
                               struct wp_outbox **out, int *n);
void wp_outbox_free(struct wp_outbox *o, int n);
/* Records an attempt: http_status 0 for no answer (error says why). A 2xx
 * delivers; otherwise the row is due again in retry_s seconds, or failed
 * for good once it has had max_attempts. */
enum wp_err wp_db_outbox_done(struct wp_conn *c, const struct wp_outbox *o, int http_status,
                              const char *error, int max_attempts, double retry_s);

/* "Time running out" (sql/011_time_warnings.sql): a page of the active
 * matches with a time control and a seated player with a webhook, with
 * id > after, in id order. */
struct wp_timed_game {
	int64_t id;
	int version, seq, seats;
	struct wp_tc tc;
};
enum wp_err wp_db_timed_games(struct wp_conn *c, int64_t after, int limit,
                              struct wp_timed_game **out, int *n);
/* Queues the warning of `seat` for its move that began after post
 * turn_seq (wp_seat_clock.move), with its deadline, once per (match, seat,
 * move) whatever the instances, and only if the match is still at
 * `version`. *queued: outbox rows queued, 0 when
 * warned already, -1 when the match changed since it was read. */
enum wp_err wp_db_time_warning(struct wp_conn *c, int64_t game, int seat, int turn_seq,
                               int version, int64_t deadline, int64_t *queued);

/* E-mail digest settings. */
#define WP_EMAIL_MAX 254
struct wp_email {
	char address[WP_EMAIL_MAX + 1];
	int digest;
	char last_digest_at[WP_TIME_MAX];  /* "" when none yet */
	int confirmed;           /* by the link sent to it (issue 28) */
};
enum wp_err wp_db_email_get(struct wp_conn *c, int64_t player, struct wp_email *out);
/* token: a fresh unsubscribe token, kept only when the address changes. */
enum wp_err wp_db_email_put(struct wp_conn *c, int64_t player, const char *address,
                            int digest, const char *token, struct wp_email *out);
/* Turns digests off for the token's player; WP_ERR_NOT_FOUND when none. */
enum wp_err wp_db_unsubscribe(struct wp_conn *c, const char *token);

/* A digest due: the player and where to send it. */
struct wp_digest {
	int64_t player;
	char address[WP_EMAIL_MAX + 1];
	char token[72];
	char name[WP_NAME_MAX];
};
enum wp_err wp_db_digest_claim(struct wp_conn *c, double period_s, int limit,
                               struct wp_digest **out, int *n);
/* The matches awaiting the player (public facts only), at most limit. */
struct wp_digest_game {
	int64_t id;
	char ruleset[64];
	int seq, seat;
};
enum wp_err wp_db_digest_games(struct wp_conn *c, int64_t player, int limit,
                               struct wp_digest_game **out, int *n);
enum wp_err wp_db_digest_done(struct wp_conn *c, int64_t player, int sent, double retry_s);

#endif
