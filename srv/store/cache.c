/* What a turn and a conditional GET need, kept in memory (issue 17,
 * "Performance"): each match (version, seq, status, snapshot, seats, dice
 * counters, who may watch; for a timed match, once read, what its clocks
 * derive from; the last past position replayed; its ruleset state loaded)
 * by match id, and players by token hash (cache_tokens.c). Both are fixed
 * tables of direct-mapped slots, so the cache is bounded by construction:
 * WP_CACHE_GAMES matches of at most WP_CACHE_BYTES of snapshots in all.
 *
 * Freshness. Every commit that changes a match sends NOTIFY wp_game
 * 'id:version' (or 'id'); the LISTEN thread hands it to wp_cache_notify()
 * before it wakes the long-polls, so a match held is never older than the
 * last notification heard, whichever instance wrote. A load races with
 * the notifications: it takes a ticket before it reads the database and
 * what it read is kept only if nothing was heard of that slot since but
 * versions of that match no newer than what it read (the floor). This
 * instance's own writes forget each match they change before they commit
 * (the slot then speaks of that match: the versions heard of it are
 * remembered) and again when the connection's transaction ends (pool.c,
 * wp_db_notify: only those matches, a vacation's included); the writer then
 * keeps the match as its commit left it unless a newer version was heard
 * of or held meanwhile (wp_cache_game_written). So no answer given after
 * a commit is acknowledged is older than the commit. Nothing is served
 * without a live LISTEN connection (lost, or its thread not seen for
 * WP_CACHE_STALE_NS), and each reconnection starts from empty, since
 * notifications may have been missed. A notification lost all the same
 * (an instance killed between a commit and the NOTIFY after it) is made
 * up for by the LISTEN thread's check of the versions held every few
 * seconds (listen.c). Writes never trust the cache: the
 * one-round-trip turn is guarded by the version and the token hash in its
 * SQL (posts.c), and a refusal made from it stands only once the database
 * says the match is still at that version, else it is decided again from
 * the database (api/write.c).
 *
 * Players by token hash: cache_tokens.c. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "store_priv.h"

#define WP_CACHE_GAMES 8192
#define WP_CACHE_BYTES (32u << 20)
#define WP_CACHE_STALE_NS (2 * 1000000000LL)
#define WP_CACHE_STRIPES 64

struct game_slot {
	int64_t id;              /* the match the slot is about; 0: none */
	uint32_t gen;            /* moves whenever something is heard of the slot */
	int floor;               /* the highest version of id heard of, -1: none */
	struct wp_game *g;       /* NULL: nothing held; options and result NULL: */
	char *options, *result;  /* kept as text */
	struct wp_clock_input *clock;  /* g's clock input, or NULL */
	size_t bytes;
	struct wp_past_text past;  /* at 0: none; outlives g (never stale) */
	size_t past_bytes;
	void *loaded;            /* g's state loaded (rules.h), or NULL */
	size_t loaded_bytes;     /* counted as its snapshot's length */
};

static struct game_slot games[WP_CACHE_GAMES];
static pthread_mutex_t stripes[WP_CACHE_STRIPES];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_uint epoch;        /* moves at each change of the LISTEN connection */
static atomic_int online;
static atomic_llong alive_ns;    /* the LISTEN thread was last seen then */
static atomic_size_t bytes;

static void
init(void)
{
	for (int i = 0; i < WP_CACHE_STRIPES; i++)
		pthread_mutex_init(&stripes[i], NULL);
}

static struct game_slot *
game_lock(int64_t id)
{
	size_t i = (size_t)((uint64_t)id % WP_CACHE_GAMES);

	pthread_once(&once, init);
	pthread_mutex_lock(&stripes[i % WP_CACHE_STRIPES]);
	return &games[i];
}

static void
game_unlock(const struct game_slot *s)
{
	pthread_mutex_unlock(&stripes[(size_t)(s - games) % WP_CACHE_STRIPES]);
}

int
wp_cache_serving(void)
{
	return atomic_load(&online) && wp_now_ns() - atomic_load(&alive_ns) < WP_CACHE_STALE_NS;
}

static void
drop_loaded(struct game_slot *s)
{
	if (!s->loaded)
		return;
	s->g->rs->free(s->loaded);
	atomic_fetch_sub(&bytes, s->loaded_bytes);
	s->loaded = NULL;
	s->loaded_bytes = 0;
}

static void
drop(struct game_slot *s)
{
	if (!s->g)
		return;
	drop_loaded(s);
	free(s->g->state);
	free(s->g);
	free(s->options);
	free(s->result);
	if (s->clock) {
		wp_clock_input_free(s->clock);
		free(s->clock);
		s->clock = NULL;
	}
	atomic_fetch_sub(&bytes, s->bytes);
	s->g = NULL;
	s->options = s->result = NULL;
	s->bytes = 0;
}

static void
drop_past(struct game_slot *s)
{
	wp_past_text_free(&s->past);
	atomic_fetch_sub(&bytes, s->past_bytes);
	s->past_bytes = 0;
}

/* The slot now speaks of id (what it knew of another match is lost). */
static void
claim(struct game_slot *s, int64_t id)
{
	if (s->id != id) {
		drop(s);
		drop_past(s);
		s->id = id;
		s->floor = -1;
	}
}

void
wp_cache_online(int on)
{
	atomic_store(&online, 0);
	atomic_fetch_add(&epoch, 1);
	wp_cache_forget_all();
	atomic_store(&alive_ns, wp_now_ns());
	atomic_store(&online, on);
}

void
wp_cache_alive(void)
{
	atomic_store(&alive_ns, wp_now_ns());
}

void
wp_cache_forget_all(void)
{
	wp_cache_forget_tokens();
	for (int64_t i = 0; i < WP_CACHE_GAMES; i++) {
		struct game_slot *s = game_lock(i);
		drop(s);
		drop_past(s);
		s->id = 0;
		s->gen++;
		game_unlock(s);
	}
}

void
wp_cache_notify(int64_t id, int version)
{
	struct game_slot *s = game_lock(id);

	/* A version already held (loaded or written after that commit) stays. */
	if (s->id == id) {
		if (version > s->floor)
			s->floor = version;
		if (s->g && (version < 0 || s->g->version < version))
			drop(s);
	}
	/* A load under way is refused when it may be older than what was
	 * heard. With a version heard of this match, the floor says so at
	 * its put (wp_cache_game_put keeps only what is at least as new), so
	 * the load need not be refused for it: this instance's own NOTIFYs,
	 * told a few milliseconds after its writes (tell.c), would otherwise
	 * spoil the loads made meanwhile. */
	if (s->id != id || version < 0)
		s->gen++;
	game_unlock(s);
}

void
wp_cache_forget(int64_t id)
{
	struct game_slot *s = game_lock(id);

	claim(s, id);
	drop(s);
	s->gen++;
	game_unlock(s);
}

uint64_t
wp_cache_ticket(int64_t id)
{
	struct game_slot *s = game_lock(id);
	uint64_t t = (uint64_t)atomic_load(&epoch) << 32 | s->gen;

	game_unlock(s);
	return t;
}

static size_t
clock_bytes(const struct wp_clock_input *in)
{
	size_t n = sizeof(*in) + (size_t)in->nmarks * sizeof(*in->marks);

	for (int i = 0; i < WR_MAX_SEATS; i++)
		n += (size_t)in->nvac[i] * sizeof(*in->vac[i]);
	return n;
}

/* The slot holds g's version with g's snapshot text (the text compared:
 * a past position or a stale copy never takes the current state). */
static int
same_snapshot(const struct game_slot *s, const struct wp_game *g)
{
	return s->g->version == g->version && s->g->rs == g->rs && s->g->state && g->state &&
	       strcmp(s->g->state, g->state) == 0;
}

/* Keeps a copy of g in the slot, or forgets the slot's match. */
static void
keep(struct game_slot *s, const struct wp_game *g)
{
	size_t n = (g->state ? strlen(g->state) : 0) + sizeof(*g);
	/* Kept as text, read back by json_tokener_parse (wr_out_text_of:
	 * rules/out.c's writer, as a turn's other JSON). */
	int o = g->options != NULL, r = g->result != NULL;
	struct wp_game *copy = malloc(sizeof(*copy));
	char *state = g->state ? strdup(g->state) : NULL;
	char *options = o ? wr_out_text_of(g->options, 1) : NULL;
	char *result = r ? wr_out_text_of(g->result, 1) : NULL;

	/* The same version again: its clock input stays. */
	struct wp_clock_input *clock = NULL;
	size_t clock_n = 0;
	if (s->id == g->id && s->g && s->g->version == g->version && s->clock) {
		clock = s->clock;
		clock_n = clock_bytes(clock);
		s->clock = NULL;
		s->bytes -= clock_n;
		atomic_fetch_sub(&bytes, clock_n);
	}
	/* And so does its loaded state (a view's read of the same version). */
	void *loaded = NULL;
	size_t loaded_n = 0;
	if (s->id == g->id && s->loaded && same_snapshot(s, g)) {
		loaded = s->loaded;
		loaded_n = s->loaded_bytes;
		s->loaded = NULL;
		s->loaded_bytes = 0;
		atomic_fetch_sub(&bytes, loaded_n);
	}
	claim(s, g->id);
	drop(s);
	if (!copy || (g->state && !state) || (o && !options) || (r && !result) ||
	    atomic_load(&bytes) + n > WP_CACHE_BYTES) {
		free(copy);
		free(state);
		free(options);
		free(result);
		if (clock) {
			wp_clock_input_free(clock);
			free(clock);
		}
		if (loaded)
			g->rs->free(loaded);
		return;
	}
	*copy = *g;
	copy->options = copy->result = NULL;
	copy->state = state;
	s->g = copy;
	s->options = options;
	s->result = result;
	s->bytes = n + clock_n;
	s->clock = clock;
	s->loaded = loaded;
	s->loaded_bytes = loaded_n;
	atomic_fetch_add(&bytes, n + clock_n + loaded_n);
}

void
wp_cache_game_put(const struct wp_game *g, uint64_t ticket)
{
	struct game_slot *s;

	if (!g->rs || !wp_cache_serving() || ticket >> 32 != atomic_load(&epoch))
		return;
	s = game_lock(g->id);
	/* Nothing older than heard of, nor than held. */
	if ((uint32_t)ticket == s->gen &&
	    (s->id != g->id || (g->version >= s->floor && (!s->g || s->g->version <= g->version))))
		keep(s, g);
	game_unlock(s);
}

void
wp_cache_game_written(const struct wp_game *g)
{
	struct game_slot *s;

	if (!g->rs || !wp_cache_serving())
		return;
	s = game_lock(g->id);
	/* The slot was claimed for the match before the write (forget): it
	 * still speaks of it, nothing newer was heard, nothing newer held. */
	if (s->id == g->id && g->version >= s->floor && (!s->g || s->g->version < g->version))
		keep(s, g);
	game_unlock(s);
}

static struct game_slot *
held(int64_t id)
{
	struct game_slot *s;

	if (!wp_cache_serving())
		return NULL;
	s = game_lock(id);
	if (s->id == id && s->g)
		return s;
	game_unlock(s);
	return NULL;
}

int
wp_cache_game(int64_t id, struct wp_game *g)
{
	struct game_slot *s = held(id);

	if (!s)
		return 0;
	*g = *s->g;
	g->state = s->g->state ? strdup(s->g->state) : NULL;
	g->options = s->options ? json_tokener_parse(s->options) : NULL;
	g->result = s->result ? json_tokener_parse(s->result) : NULL;
	int bad = (s->g->state && !g->state) || (s->options && !g->options) ||
	          (s->result && !g->result);
	game_unlock(s);
	if (bad) {
		wp_game_free(g);
		return 0;
	}
	return 1;
}

void *
wp_cache_state_take(const struct wp_game *g)
{
	struct game_slot *s = held(g->id);
	void *state = NULL;

	if (!s)
		return NULL;
	if (s->loaded && same_snapshot(s, g)) {
		state = s->loaded;
		atomic_fetch_sub(&bytes, s->loaded_bytes);
		s->loaded = NULL;
		s->loaded_bytes = 0;
	}
	game_unlock(s);
	return state;
}

void
wp_cache_state_give(int64_t id, int version, const struct wr_ruleset *rs, void *state)
{
	struct game_slot *s = state ? held(id) : NULL;

	if (s) {
		size_t n = s->g->state ? strlen(s->g->state) : 0;
		if (!s->loaded && s->g->version == version && s->g->rs == rs && n &&
		    atomic_load(&bytes) + n <= WP_CACHE_BYTES) {
			s->loaded = state;
			s->loaded_bytes = n;
			atomic_fetch_add(&bytes, n);
			state = NULL;
		}
		game_unlock(s);
	}
	if (state)
		rs->free(state);
}

int
wp_cache_clock(int64_t id, int version, struct wp_clock_input *in)
{
	struct game_slot *s = held(id);
	int hit;

	if (!s)
		return 0;
	hit = s->clock && s->g->version == version && wp_clock_input_copy(in, s->clock, 1) == 0;
	game_unlock(s);
	return hit;
}

void
wp_cache_clock_put(int64_t id, int version, const struct wp_clock_input *in)
{
	struct game_slot *s = held(id);
	struct wp_clock_input *copy;
	size_t n = clock_bytes(in);

	if (!s)
		return;
	if (!s->clock && s->g->version == version && atomic_load(&bytes) + n <= WP_CACHE_BYTES &&
	    (copy = malloc(sizeof(*copy)))) {
		if (wp_clock_input_copy(copy, in, 0) == 0) {
			s->clock = copy;
			s->bytes += n;
			atomic_fetch_add(&bytes, n);
		} else {
			free(copy);
		}
	}
	game_unlock(s);
}

void
wp_past_text_free(struct wp_past_text *p)
{
	free(p->state);
	free(p->result);
	memset(p, 0, sizeof(*p));
}

static int
past_copy(struct wp_past_text *dst, const struct wp_past_text *src)
{
	*dst = *src;
	dst->state = src->state ? strdup(src->state) : NULL;
	dst->result = src->result ? strdup(src->result) : NULL;
	if ((src->state && !dst->state) || (src->result && !dst->result)) {
		wp_past_text_free(dst);
		return -1;
	}
	return 0;
}

int
wp_cache_held(int64_t **out)
{
	int n = 0;

	if (!(*out = malloc(WP_CACHE_GAMES * sizeof(**out))))
		return -1;
	for (int64_t i = 0; i < WP_CACHE_GAMES; i++) {
		struct game_slot *s = game_lock(i);
		if (s->g)
			(*out)[n++] = s->id;
		game_unlock(s);
	}
	return n;
}

int
wp_cache_behind(int64_t id, int version)
{
	struct game_slot *s = game_lock(id);
	int behind = s->id == id && s->g && s->g->version < version;

	game_unlock(s);
	if (behind)
		wp_cache_notify(id, version);
	return behind;
}

int
wp_cache_past(int64_t id, int at, struct wp_past_text *out)
{
	struct game_slot *s = game_lock(id);
	int hit = s->id == id && s->past.at == at && at > 0 && past_copy(out, &s->past) == 0;

	game_unlock(s);
	return hit;
}

void
wp_cache_past_put(int64_t id, const struct wp_past_text *in)
{
	size_t n = sizeof(*in) + (in->state ? strlen(in->state) : 0) +
	           (in->result ? strlen(in->result) : 0);
	struct game_slot *s;

	if (in->at < 1 || !wp_cache_serving())
		return;
	s = game_lock(id);
	claim(s, id);
	drop_past(s);
	if (atomic_load(&bytes) + n <= WP_CACHE_BYTES && past_copy(&s->past, in) == 0) {
		s->past_bytes = n;
		atomic_fetch_add(&bytes, n);
	}
	game_unlock(s);
}

int
wp_cache_head(int64_t id, int64_t player, struct wp_game_head *h)
{
	struct game_slot *s = held(id);

	if (!s)
		return 0;
	memset(h, 0, sizeof(*h));
	h->version = s->g->version;
	h->seq = s->g->seq;
	h->status = s->g->status;
	h->watch = s->g->watch;
	h->delay = s->g->delay;
	h->seat = player ? wp_game_seat_of(s->g, player) : -1;
	game_unlock(s);
	return 1;
}
